import { REDACTED } from './shapes.ts';

/**
 * Redacts a stream of whole lines (a child's output, as the trace and the event records see
 * it) with the one piece of state a line alone cannot carry: whether it is inside a PEM block.
 * From a `-----BEGIN …-----` line until its `-----END …-----` line every line is hidden whole,
 * so a key printed line by line (or in separate writes) leaves nothing but its armour. A block
 * ends early at a line that cannot be part of one (not base64, not a `Name: value` header, not
 * blank), or after MAX_BLOCK_LINES, so a stray BEGIN never hides the rest of a run.
 */

export interface LineRedactor {
  /** One whole line, without its newline. */
  line(text: string): string;
}

/** A 16384-bit RSA key is about 200 lines of 64; nothing real is longer. */
const MAX_BLOCK_LINES = 400;
const BEGIN = /-----BEGIN ([A-Z0-9 ]{1,60})-----/;
const BODY = /^[ \t]*(?:[A-Za-z0-9+/=]*|[A-Za-z][\w-]*: .*)[ \t\r]*$/;

export function createLineRedactor(text: (s: string) => string): LineRedactor {
  let block: { end: string; lines: number } | null = null;
  return {
    line(line) {
      if (block) {
        const endAt = line.indexOf(block.end);
        if (endAt >= 0) {
          const end = block.end;
          block = null;
          return `${endAt > 0 ? REDACTED : ''}${end}${text(line.slice(endAt + end.length))}`;
        }
        if (++block.lines <= MAX_BLOCK_LINES && BODY.test(line)) return REDACTED;
        block = null;
      }
      const begin = BEGIN.exec(line);
      if (begin && !line.includes(`-----END ${begin[1]}-----`, begin.index))
        block = { end: `-----END ${begin[1]}-----`, lines: 0 };
      return text(line);
    },
  };
}

/**
 * Lines cut from the middle of a stream (the tail of output an incident keeps): a key block may
 * have begun before the first of them. Hides every block line, including the ones above an
 * `-----END …-----` whose BEGIN was cut off; redacts nothing else (the caller's redactor does).
 */
export function hideKeyBlockLines(lines: readonly string[]): string[] {
  const blocks = createLineRedactor((line) => line);
  const out = lines.map((line) => blocks.line(line));
  const orphanEnd = out.findIndex(
    (line, i) => /-----END [A-Z0-9 ]{1,60}-----/.test(line) && !out.slice(0, i).some((l) => BEGIN.test(l)),
  );
  for (let i = orphanEnd - 1; i >= 0 && BODY.test(out[i]!); i--) out[i] = REDACTED;
  return out;
}
