/**
 * The text of a `$'…'` word: the escapes bash decodes inside it. `body` starts just after the
 * opening `$'`; returns the decoded text and the index just past the closing quote, or null when
 * the quote is never closed (bash would not run the script).
 */
export function readAnsiC(body: string, from: number): { text: string; end: number } | null {
  let text = '';
  // An escaped NUL ends the text bash can pass on; the rest of the quote still has to close.
  let ended = false;
  for (let i = from; i < body.length; i++) {
    const c = body[i]!;
    if (c === "'") return { text, end: i + 1 };
    if (c !== '\\' || i + 1 >= body.length) {
      if (!ended) text += c;
      continue;
    }
    const escape = decodeEscape(body, i + 1);
    ended ||= escape.text === '\0';
    if (!ended) text += escape.text;
    i = escape.end - 1;
  }
  return null;
}

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** One escape whose letter is at `at`: its text and the index just past it. */
function decodeEscape(body: string, at: number): { text: string; end: number } {
  const c = body[at]!;
  if (c in SIMPLE) return { text: SIMPLE[c]!, end: at + 1 };
  const digits = (pattern: RegExp, max: number, start: number) => {
    let end = start;
    while (end < body.length && end - start < max && pattern.test(body[end]!)) end++;
    return end;
  };
  if (/[0-7]/.test(c)) {
    const end = digits(/[0-7]/, 3, at);
    return { text: byte(parseInt(body.slice(at, end), 8) & 0xff), end };
  }
  if (c === 'x' || c === 'u' || c === 'U') {
    const end = digits(/[0-9a-fA-F]/, c === 'x' ? 2 : c === 'u' ? 4 : 8, at + 1);
    if (end === at + 1) return { text: `\\${c}`, end: at + 1 };
    const value = parseInt(body.slice(at + 1, end), 16);
    return { text: c === 'x' ? byte(value) : codePoint(value), end };
  }
  if (c === 'c' && at + 1 < body.length)
    return { text: String.fromCharCode(body.charCodeAt(at + 1) & 0x1f), end: at + 2 };
  return { text: `\\${c}`, end: at + 1 };
}

/** A byte escape: ASCII as itself; a byte above 0x7f stands for itself only in a UTF-8 sequence, which an argv word compared as text cannot hold alone. */
function byte(value: number): string {
  return value < 0x80 ? String.fromCharCode(value) : '\ufffd';
}

function codePoint(value: number): string {
  return value <= 0x10ffff && (value < 0xd800 || value > 0xdfff) ? String.fromCodePoint(value) : '\ufffd';
}
