import { OUTPUT_TAIL_CHARS } from './output-tail.ts';

/**
 * A tool's output inside an event line (Codex's `aggregated_output`, a Claude tool result's
 * `content`) can be most of a megabyte, and JSON.parse reads every character of it although
 * deadman keeps only its start and its end. Before such a line is parsed, the middle of those
 * string values is cut out of the raw text, at escape boundaries, so the parsed value is its
 * first HEAD_CHARS and last TAIL_CHARS raw characters, decoded exactly as the whole would be.
 *
 * Why this is safe: an unescaped `"` only ever opens or closes a string, so the raw text
 * `"content":"` can only be that key and the start of its value, never part of another string;
 * and both kept pieces start and end on escape boundaries, so each decodes to exactly the
 * start or the end of the whole value. One difference: a malformed escape in the cut middle
 * is not seen, so such a line parses where the whole would not.
 */

/** Values shorter than this are parsed whole: cutting would save little. */
export const LONG_VALUE_CHARS = 16 * 1024;
/** At least 170 decoded characters (an escape is at most 6 raw ones, and a boundary moves a cut by up to 5): room for "Exit code N". */
const HEAD_CHARS = 1024;
/** At least 1000 decoded characters, as much as any adapter keeps of an output's end. */
const TAIL_CHARS = 6 * OUTPUT_TAIL_CHARS + 6;

/** `line` with the middle of each long string value of the given keys cut out; `line` itself when there is none. */
export function withoutLongValues(line: string, keys: readonly string[]): string {
  if (line.length < LONG_VALUE_CHARS) return line;
  const cuts = keys.flatMap((key) => middlesOf(line, `"${key}":"`)).sort((a, b) => a.from - b.from);
  if (cuts.length === 0) return line;
  const kept: string[] = [];
  let copiedUpTo = 0;
  for (const cut of cuts) {
    kept.push(line.slice(copiedUpTo, cut.from));
    copiedUpTo = cut.to;
  }
  kept.push(line.slice(copiedUpTo));
  return kept.join('');
}

/** The raw middles [from, to) of the long string values that follow `opening`. */
function middlesOf(line: string, opening: string): Array<{ from: number; to: number }> {
  const middles: Array<{ from: number; to: number }> = [];
  for (let at = line.indexOf(opening); at !== -1; at = line.indexOf(opening, at + 1)) {
    const start = at + opening.length;
    const end = closingQuote(line, start);
    if (end === -1) break;
    if (end - start < LONG_VALUE_CHARS) continue;
    middles.push({
      from: escapeBoundary(line, start + HEAD_CHARS, start),
      to: escapeBoundary(line, end - TAIL_CHARS, start),
    });
    at = end;
  }
  return middles;
}

/** The index of the `"` closing the string whose content starts at `start`, or -1. */
function closingQuote(line: string, start: number): number {
  for (let quote = line.indexOf('"', start); quote !== -1; quote = line.indexOf('"', quote + 1)) {
    if (backslashesBefore(line, quote, start) % 2 === 0) return quote;
  }
  return -1;
}

/** The first index at or after `index` that is not inside an escape sequence of the string content starting at `start`. */
function escapeBoundary(line: string, index: number, start: number): number {
  const run = backslashesBefore(line, index, start);
  if (run % 2 === 1) return index + (line[index] === 'u' ? 5 : 1);
  if (run > 0) return index;
  // Within the four hex digits of a \uXXXX escape?
  for (let back = 1; back <= 4 && index - back > start; back++) {
    const at = index - back;
    if (line[at] === 'u' && backslashesBefore(line, at, start) % 2 === 1) return at + 5;
  }
  return index;
}

function backslashesBefore(line: string, index: number, start: number): number {
  let run = 0;
  while (index - run - 1 >= start && line.charCodeAt(index - run - 1) === 92) run++;
  return run;
}
