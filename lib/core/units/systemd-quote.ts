import { usageError } from '../../exit-codes.ts';

/**
 * Quoting for values written into systemd unit files (systemd.syntax(7), systemd.service(5)).
 *
 * systemd reads `ExecStart=` word by word: double quotes group, backslash escapes are C-style
 * (also outside quotes), a lone unquoted `;` separates commands, and after unquoting each word
 * `%x` is a specifier and `$VAR`/`${VAR}` is replaced from the environment. So a literal `%` is
 * written `%%` and a literal `$` is `$$` — these survive unquoting untouched, which is why they
 * are applied as doubling and never as `\x25`/`\x24` escapes (those would be unescaped first and
 * then expanded). `Environment=` has the same word syntax and specifiers but no `$` expansion.
 *
 * A line break cannot be written: unit files are line-based (`\r`, `\n`), and a NUL cannot be
 * in an argument at all. Those are refused; other control characters become `\xNN` escapes.
 */

export type QuoteResult = { ok: true; text: string } | { ok: false; error: string };

/** Longest line systemd's parser reads (LONG_LINE_MAX). */
export const SYSTEMD_LINE_MAX = 1024 * 1024;

/** Words that need no quotes: nothing systemd treats specially, and not a lone `;`. */
const BARE_WORD = /^[A-Za-z0-9_@%$+=:,./-]+$/;

/** One argument of `ExecStart=`, quoted only when it has to be. */
export function quoteExecArg(value: string): QuoteResult {
  return quoteWord(value, true);
}

/** One `KEY=value` word of `Environment=`. */
export function quoteEnvironmentAssignment(key: string, value: string): QuoteResult {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
    return {
      ok: false,
      error: `environment variable name "${key}" is not valid; use letters, digits and _ (not starting with a digit)`,
    };
  }
  return quoteWord(`${key}=${value}`, false);
}

/** One path of a path list such as `ReadWritePaths=` (same word syntax, no `$` expansion). */
export function quotePath(value: string): QuoteResult {
  return quoteWord(value, false);
}

/** A whole `ExecStart=` value: every argument quoted, joined with spaces. */
export function quoteCommandLine(argv: readonly string[]): QuoteResult {
  const words: string[] = [];
  for (const [index, arg] of argv.entries()) {
    const quoted = quoteExecArg(arg);
    if (!quoted.ok) return { ok: false, error: `argument ${index + 1} ${quoted.error}` };
    words.push(quoted.text);
  }
  const text = words.join(' ');
  if (text.length + 'ExecStart='.length >= SYSTEMD_LINE_MAX) {
    return {
      ok: false,
      error: `the command line is ${text.length} bytes; systemd reads unit lines up to ${SYSTEMD_LINE_MAX} bytes — move the long argument into a file`,
    };
  }
  return { ok: true, text };
}

/**
 * A value systemd takes verbatim except for specifiers (`Description=`, `WorkingDirectory=`,
 * `User=`): only `%` needs doubling; a line break is still refused.
 */
export function escapeSpecifiers(value: string): QuoteResult {
  const refused = refusedCharacter(value);
  if (refused) return { ok: false, error: refused };
  return { ok: true, text: value.replaceAll('%', '%%') };
}

function quoteWord(value: string, escapeDollar: boolean): QuoteResult {
  const refused = refusedCharacter(value);
  if (refused) return { ok: false, error: refused };
  let text = value.replaceAll('%', '%%');
  if (escapeDollar) text = text.replaceAll('$', '$$$$');
  if (BARE_WORD.test(text)) return { ok: true, text };
  const escaped = text.replace(/[\\"\x00-\x1f\x7f]/g, (c) =>
    c === '\\' || c === '"' ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return { ok: true, text: `"${escaped}"` };
}

function refusedCharacter(value: string): string | null {
  if (value.includes('\n') || value.includes('\r')) {
    return `${preview(value)} contains a line break, which a unit file cannot hold; put the text in a file and pass its path instead`;
  }
  if (value.includes('\0')) return `${preview(value)} contains a NUL byte, which no program argument can hold`;
  if (/\p{Cs}/u.test(value)) return `${preview(value)} is not valid Unicode (a lone surrogate); unit files are UTF-8`;
  return null;
}

function preview(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(shown);
}

/** The quoted text, or a usage error naming what could not be written into the unit. */
export function quotedOrRefuse(result: QuoteResult, what: string): string {
  if (!result.ok) throw usageError(`${what}: ${result.error}`);
  return result.text;
}
