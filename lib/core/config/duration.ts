/**
 * Durations in systemd's time-span syntax (systemd.time(7)): `90s`, `7min`, `6h`, `1d`,
 * `500ms`, `1h 30min`. A bare number means seconds, as in systemd. Units are written right
 * after their number: `7 minutes` is refused (systemd reads it, but it is a common typo for
 * `7min` in a config whose units we want to be unambiguous).
 */

const UNIT_MS: Record<string, number> = {
  us: 0.001, usec: 0.001,
  ms: 1, msec: 1,
  s: 1000, sec: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};

const COMPONENT = /^(\d+(?:\.\d+)?)([a-z]*)$/;

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

/** `off`, `0` and `infinity` all mean "disabled" and parse to 0. */
export function parseDuration(text: string): DurationResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'is empty; write a span such as "90s", "7min" or "1h 30min"' };
  if (trimmed === 'off' || trimmed === 'infinity') return { ok: true, ms: 0 };
  if (trimmed.startsWith('-')) return { ok: false, error: `"${text}" is negative; durations are 0 or more ("off" disables)` };
  const parts = trimmed.split(/\s+/);
  let total = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const match = COMPONENT.exec(part);
    const next = parts[i + 1];
    if (!match) {
      return { ok: false, error: `"${text}" is not a duration; write e.g. "90s", "7min", "6h", "1d", "500ms" or "1h 30min"` };
    }
    const unit = match[2]!;
    if (unit === '' && next !== undefined && /^[a-z]+$/.test(next)) {
      return { ok: false, error: `"${text}" has a space between number and unit; write "${match[1]}${shortUnit(next)}"` };
    }
    const factor = unit === '' ? 1000 : UNIT_MS[unit];
    if (factor === undefined) {
      return { ok: false, error: `"${text}" has an unknown unit "${unit}"; use ms, s, min, h, d or w` };
    }
    total += Number(match[1]) * factor;
  }
  return { ok: true, ms: Math.round(total) };
}

function shortUnit(word: string): string {
  const ms = UNIT_MS[word];
  if (ms === undefined) return word;
  return { 0.001: 'us', 1: 'ms', 1000: 's', 60000: 'min', 3600000: 'h', 86400000: 'd', 604800000: 'w' }[ms] ?? word;
}

/**
 * Human form used in messages and STATUS= lines: `30m 0s`, `1h 5m 0s`, `4s`, `2d 3h 0m 0s`,
 * `500ms`. Leading zero units are dropped; seconds are always shown once a larger unit is.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  let seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400); seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600); seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60); seconds -= minutes * 60;
  const out: string[] = [];
  if (days) out.push(`${days}d`);
  if (days || hours) out.push(`${hours}h`);
  if (days || hours || minutes) out.push(`${minutes}m`);
  out.push(`${seconds}s`);
  return out.join(' ');
}

/** Coarse age for "is 4 days stale": the largest whole unit. */
export function formatAge(ms: number): string {
  const units: Array<[number, string]> = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1000, 'second']];
  for (const [size, name] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'}`;
  }
  return `${Math.max(0, Math.round(ms))} ms`;
}

/** systemd form for unit files: whole seconds when possible. */
export function formatSystemdSpan(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
