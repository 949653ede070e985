import type { SQLInputValue } from 'node:sqlite';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';

/** How a row's values become SQLite columns and back: objects, arrays and JSON columns as JSON text. */

/** Columns stored as JSON text (whatever the value) and parsed back when read. */
const JSON_COLUMNS = new Set(['argv', 'data', 'processes', 'evidence', 'target', 'detail']);

export function toColumn(value: unknown, column: string): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object' && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value as SQLInputValue;
}

export function fromRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = JSON_COLUMNS.has(key) && typeof value === 'string' ? safeJson(value) : value;
  }
  return out;
}

/** A column's JSON, or its text when it holds no JSON. */
export function safeJson(text: string): unknown {
  const value = parseJsonOrUndefined(text);
  return value === undefined ? text : value;
}
