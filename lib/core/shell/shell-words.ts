import { readAnsiC } from './ansi-c-quote.ts';

/**
 * A script read as bash reads it, into its simple commands and their words: single and double
 * quotes, backslashes, `$'…'`, `$"…"`, comments, line continuations, here-documents, and the
 * operators that end a command (`;`, `&&`, `||`, `|`, `&`, newline, parentheses). Redirections
 * and their targets are not words of the command (`eval 'x' < /dev/null`, `pwd -P >| f`,
 * `2>&1`). What only the running shell knows — `$x`, `$(…)`, backquotes, an unquoted glob or
 * brace list, `~` — leaves the word unknown (null): it matches any one word, never a
 * particular text. Pure; null for a script bash would refuse (an unclosed quote).
 */

/** One word of a command; null when only the running shell can know it. */
export type Word = string | null;
export type SimpleCommand = Word[];

const BLANK = /[ \t]/;
const ENDS_WORD = /[ \t\n;&|()<>]/;

export function parseScript(script: string): SimpleCommand[] | null {
  const reader = new ScriptReader(script);
  return reader.read() ? reader.commands.filter((c) => c.length > 0) : null;
}

class ScriptReader {
  readonly commands: SimpleCommand[] = [[]];
  #text = '';
  #started = false;
  #unknown = false;
  #brace = false;
  /** The next word is a redirection's target (dropped), or a here-document's delimiter. */
  #redirect: 'target' | 'heredoc' | 'heredoc-tabs' | null = null;
  readonly #heredocs: Array<{ delimiter: string; tabs: boolean }> = [];
  #i = 0;

  constructor(private readonly s: string) {}

  read(): boolean {
    const s = this.s;
    while (this.#i < s.length) {
      const c = s[this.#i]!;
      if (BLANK.test(c)) this.#endWord();
      else if (c === '\n') this.#newline();
      else if (c === '#' && !this.#started) this.#skipComment();
      else if (c === "'" || c === '"' || c === '\\' || c === '$' || c === '`') {
        if (!this.#quoted(c)) return false;
        continue;
      } else if (c === '<' || c === '>' || (c === '&' && s[this.#i + 1] === '>')) this.#redirection();
      else if (ENDS_WORD.test(c)) this.#operator();
      else this.#plain(c);
      this.#i++;
    }
    this.#endWord();
    return true;
  }

  #plain(c: string): void {
    this.#started = true;
    if (c === '*' || c === '?' || (c === '[' && this.#closesLater(']')) || (c === '~' && this.#text === ''))
      this.#unknown = true;
    if (c === '{') this.#brace = true;
    if (this.#brace && c === ',') this.#unknown = true;
    this.#text += c;
  }

  /** A quote, a backslash or an expansion; returns false for a quote never closed. */
  #quoted(c: string): boolean {
    const s = this.s;
    if (c === '\\') {
      const next = s[this.#i + 1];
      // A backslash before a newline joins two lines and is no part of any word.
      if (next !== '\n') this.#started = true;
      if (next === undefined) this.#text += '\\';
      else if (next !== '\n') this.#text += next;
      this.#i += 2;
      return true;
    }
    this.#started = true;
    if (c === "'") {
      const end = s.indexOf("'", this.#i + 1);
      if (end < 0) return false;
      this.#text += s.slice(this.#i + 1, end);
      this.#i = end + 1;
      return true;
    }
    if (c === '"' || (c === '$' && s[this.#i + 1] === '"')) return this.#doubleQuoted(s.indexOf('"', this.#i) + 1);
    if (c === '$' && s[this.#i + 1] === "'") {
      const read = readAnsiC(s, this.#i + 2);
      if (!read) return false;
      this.#text += read.text;
      this.#i = read.end;
      return true;
    }
    const end = expansionEnd(s, this.#i);
    if (end === this.#i + 1 && c === '$') this.#text += '$';
    else this.#unknown = true;
    this.#i = end;
    return end <= s.length;
  }

  #doubleQuoted(from: number): boolean {
    const s = this.s;
    for (let i = from; i < s.length;) {
      const c = s[i]!;
      if (c === '"') {
        this.#i = i + 1;
        return true;
      }
      if (c === '\\' && i + 1 < s.length) {
        const next = s[i + 1]!;
        if (next !== '\n') this.#text += '$`"\\'.includes(next) ? next : `\\${next}`;
        i += 2;
      } else if (c === '$' || c === '`') {
        const end = expansionEnd(s, i);
        if (end === i + 1 && c === '$') this.#text += '$';
        else this.#unknown = true;
        i = end;
      } else {
        this.#text += c;
        i++;
      }
    }
    return false;
  }

  #redirection(): void {
    const s = this.s;
    // A word of digits right before it names a file descriptor (`2>&1`): not a word of the command.
    if (this.#started && !this.#unknown && /^\d+$/.test(this.#text) && !BLANK.test(s[this.#i - 1] ?? ' '))
      this.#dropWord();
    else this.#endWord();
    const op = /^(?:<<<|<<-|<<|<>|<&|<\(|<|&>>|&>|>>|>&|>\||>\(|>)/.exec(s.slice(this.#i))![0];
    this.#i += op.length - 1;
    if (op.endsWith('(')) {
      this.#started = true;
      this.#unknown = true;
      this.#i = expansionEnd(s, this.#i - 1) - 1;
      return;
    }
    this.#redirect = op === '<<' ? 'heredoc' : op === '<<-' ? 'heredoc-tabs' : 'target';
  }

  #operator(): void {
    this.#endWord();
    const s = this.s;
    const c = s[this.#i]!;
    if ((c === '&' || c === '|' || c === ';') && (s[this.#i + 1] === c || (c === '|' && s[this.#i + 1] === '&')))
      this.#i++;
    this.#endCommand();
  }

  #newline(): void {
    this.#endWord();
    this.#endCommand();
    for (const { delimiter, tabs } of this.#heredocs.splice(0)) {
      while (this.#i < this.s.length) {
        const end = this.s.indexOf('\n', this.#i + 1);
        const line = this.s.slice(this.#i + 1, end < 0 ? this.s.length : end);
        this.#i = end < 0 ? this.s.length : end;
        if ((tabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
      }
    }
  }

  #skipComment(): void {
    const end = this.s.indexOf('\n', this.#i);
    this.#i = (end < 0 ? this.s.length : end) - 1;
  }

  #closesLater(close: string): boolean {
    const rest = this.s.slice(this.#i + 1);
    const end = rest.search(ENDS_WORD);
    return (end < 0 ? rest : rest.slice(0, end)).includes(close);
  }

  #endWord(): void {
    if (!this.#started) return;
    const word = this.#unknown ? null : this.#text;
    if (this.#redirect === 'heredoc' || this.#redirect === 'heredoc-tabs')
      this.#heredocs.push({ delimiter: word ?? this.#text, tabs: this.#redirect === 'heredoc-tabs' });
    else if (this.#redirect === null) this.commands.at(-1)!.push(word);
    this.#redirect = null;
    this.#dropWord();
  }

  #dropWord(): void {
    this.#text = '';
    this.#started = false;
    this.#unknown = false;
    this.#brace = false;
  }

  #endCommand(): void {
    if (this.commands.at(-1)!.length > 0) this.commands.push([]);
  }
}

/**
 * Where an expansion starting at `at` (`$name`, `$1`, `$?`, `${…}`, `$(…)`, `$((…))`, a
 * backquote, `<(…)`) ends; at + 1 for a lone `$`. Past the text's end when never closed.
 */
function expansionEnd(s: string, at: number): number {
  const c = s[at]!;
  const next = s[at + 1] ?? '';
  if (c === '`') return closing(s, at + 1, '`', '`');
  if (next === '{') return closing(s, at + 2, '{', '}');
  if (next === '(') return closing(s, at + 2, '(', ')');
  if (/[A-Za-z_]/.test(next)) return at + 1 + /^[A-Za-z0-9_]*/.exec(s.slice(at + 1))![0].length;
  if (/[0-9@*#?$!-]/.test(next)) return at + 2;
  return at + 1;
}

/** Index just past the `close` that balances an already opened `open`, skipping quoted text; past the end if none. */
function closing(s: string, from: number, open: string, close: string): number {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') i++;
    else if (c === "'" && open !== '`') i = s.indexOf("'", i + 1) < 0 ? s.length : s.indexOf("'", i + 1);
    else if (c === close && --depth === 0) return i + 1;
    else if (c === open && open !== close) depth++;
  }
  return s.length + 1;
}
