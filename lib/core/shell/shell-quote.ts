/**
 * One word quoted so that a shell reads it back unchanged, in each of the styles agents and
 * people write: the fake agent quotes its commands as Codex does (`codexCommandLine`), and the
 * parser's corpus test quotes random words every way bash accepts. Pure.
 */

export type QuoteStyle = 'single' | 'double' | 'ansi-c' | 'backslash';

export function quoteWord(word: string, style: QuoteStyle): string {
  switch (style) {
    case 'single':
      return `'${word.replaceAll("'", `'\\''`)}'`;
    case 'double':
      return `"${word.replace(/[\\"$`]/g, '\\$&')}"`;
    case 'ansi-c':
      return `$'${[...word].map(ansiC).join('')}'`;
    case 'backslash':
      // A newline cannot be backslash-escaped (that joins lines): it goes in single quotes.
      return word === '' ? "''" : word.replace(/[^A-Za-z0-9_\-./,:@%+=\n]/gu, '\\$&').replaceAll('\n', "'\n'");
  }
}

function ansiC(c: string): string {
  if (c === '\\' || c === "'") return `\\${c}`;
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  const code = c.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code > 0xffff
    ? `\\U${code.toString(16).padStart(8, '0')}`
    : code > 0x7e
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : c;
}

/** How Codex prints a tool's command: `/bin/bash -lc '…'`, or double quotes with backslash escapes when the script holds a single quote. */
export function codexCommandLine(script: string): string {
  return `/bin/bash -lc ${quoteWord(script, script.includes("'") ? 'double' : 'single')}`;
}
