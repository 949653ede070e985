/**
 * The JSON-lines framing both agents share. A line is one JSON object with a string `type`;
 * anything else (plain text errors printed before the JSON starts, partial writes, garbage)
 * is not an event. Lines cut by the reader's size limit no longer parse, so their opening
 * bytes are read on their own: the type still proves the line was the agent speaking.
 */

import { withoutLongValues } from './long-values.ts';
import { parseJsonOrUndefined } from '../json/parse-json.ts';

export type JsonObject = Record<string, unknown>;

/**
 * Parses a line as a JSON object with a string `type`; null for anything else. Never throws.
 * The middles of long string values of `longValueKeys` are not read (long-values.ts).
 */
export function parseEventLine(line: string, longValueKeys: readonly string[] = []): JsonObject | null {
  const start = line.trimStart();
  if (!start.startsWith('{')) return null;
  const shortened = withoutLongValues(start, longValueKeys);
  // Should the shortened text not parse, the whole line decides.
  // Duplicate keys (Codex's web_search items carry two "id"s) are legal here: the last wins.
  const value = parseJsonOrUndefined(shortened) ?? (shortened === start ? undefined : parseJsonOrUndefined(start));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return typeof (value as JsonObject).type === 'string' ? (value as JsonObject) : null;
}

const HEAD_CHARS = 512;
const HEAD_TYPE = /^\s*\{\s*"type"\s*:\s*"([\w./-]{1,64})"/;

/** The `type` of a line that starts like an event but did not parse (cut short), else null. */
export function typeOfCutLine(line: string): string | null {
  return HEAD_TYPE.exec(line.slice(0, HEAD_CHARS))?.[1] ?? null;
}

/** The first capture of `pattern` within the opening bytes of a cut line, else null. */
export function fieldOfCutLine(line: string, pattern: RegExp): string | null {
  return pattern.exec(line.slice(0, HEAD_CHARS))?.[1] ?? null;
}
