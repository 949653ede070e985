import type { Claim } from '../config/config.ts';
import { formatDuration } from '../time/duration.ts';

/**
 * A typed claim as the TOML lines that write it by hand (`kind = "file"`, `max_age = "6h"`):
 * what `check --explain` and `config check` print for the plan a sentence became, so a reader
 * sees exactly what will be checked and can copy it into an `[[jobs.NAME.evidence]]` block.
 * Keys at their defaults are left out.
 */

const DURATION_KEYS = new Set(['max_age', 'interval', 'grace', 'timeout']);
const DEFAULTS: Record<string, unknown> = { when: 'on_exit', interval: 60_000, grace: 0, non_empty: false };
const ORDER = [
  'name',
  'kind',
  'root',
  'path',
  'glob',
  'non_empty',
  'min_bytes',
  'max_age',
  'modified_today',
  'time_zone',
  'min_lines',
  'header',
  'contains',
  'min_count',
  'max_count',
  'command',
  'stdout_matches',
  'cwd',
  'url',
  'status',
  'body_matches',
  'timeout',
  'when',
  'interval',
  'grace',
];

export function planLines(claim: Claim): string[] {
  const entries = Object.entries(claim as Record<string, unknown>).filter(
    ([key, value]) => value !== undefined && DEFAULTS[key] !== value,
  );
  entries.sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b));
  return entries.map(([key, value]) => `${key} = ${tomlValue(key, value)}`);
}

function tomlValue(key: string, value: unknown): string {
  if (DURATION_KEYS.has(key) && typeof value === 'number')
    return JSON.stringify(value === 0 ? 'off' : formatDuration(value));
  return JSON.stringify(value);
}
