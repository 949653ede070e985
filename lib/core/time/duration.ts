/**
 * Time spans exactly as systemd reads and writes them (systemd.time(7); parse_time() and
 * format_timespan() in systemd's time-util.c): `90s`, `7 minutes`, `1h30min`, `1.5h`, `2M`,
 * `1y`, `500ms`, `infinity`; a bare number means seconds. Parsed into whole microseconds with
 * BigInt, so that overflow is a refusal (as systemd's ERANGE) rather than a rounded number.
 * A test compares a corpus with `systemd-analyze timespan`.
 */

const US = 1n;
const MS = 1000n;
const SEC = 1_000_000n;
const MIN = 60n * SEC;
const HOUR = 60n * MIN;
const DAY = 24n * HOUR;
const WEEK = 7n * DAY;
const MONTH = 2_629_800n * SEC;
const YEAR = 31_557_600n * SEC;

/** systemd's suffix table, in its matching order: the first prefix that matches wins. */
const SUFFIXES: Array<[string, bigint]> = [
  ['seconds', SEC],
  ['second', SEC],
  ['sec', SEC],
  ['s', SEC],
  ['minutes', MIN],
  ['minute', MIN],
  ['min', MIN],
  ['months', MONTH],
  ['month', MONTH],
  ['M', MONTH],
  ['msec', MS],
  ['ms', MS],
  ['m', MIN],
  ['hours', HOUR],
  ['hour', HOUR],
  ['hr', HOUR],
  ['h', HOUR],
  ['days', DAY],
  ['day', DAY],
  ['d', DAY],
  ['weeks', WEEK],
  ['week', WEEK],
  ['w', WEEK],
  ['years', YEAR],
  ['year', YEAR],
  ['y', YEAR],
  ['usec', US],
  ['us', US],
  ['\u03bcs', US],
  ['\u00b5s', US],
];

/** The units systemd writes, largest first. */
const OUTPUT_UNITS: Array<[string, bigint]> = [
  ['y', YEAR],
  ['month', MONTH],
  ['w', WEEK],
  ['d', DAY],
  ['h', HOUR],
  ['min', MIN],
  ['s', SEC],
  ['ms', MS],
  ['us', US],
];

const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;
const WHITESPACE = /^[ \t\n\r]*/;
/** strtoll(3): its own leading space, an optional sign, decimal digits. */
const STRTOLL = /^[ \t\n\v\f\r]*([+-]?)(\d+)/;

export type SpanResult = { ok: true; usec: bigint | 'infinity' } | { ok: false; error: string };

const EXAMPLES = 'write e.g. "90s", "7min", "1h 30min", "1.5h" or "3 days"';

/** Reads a span as systemd's parse_sec() does; errors are phrased as fixes, for the caller to prefix with the value. */
export function parseSpan(text: string): SpanResult {
  const invalid = (why: string): SpanResult => ({ ok: false, error: why });
  let rest = text.replace(WHITESPACE, '');
  if (rest.startsWith('infinity')) {
    return rest.slice(8).replace(WHITESPACE, '') === ''
      ? { ok: true, usec: 'infinity' }
      : invalid(`is not a time span; ${EXAMPLES}`);
  }
  let total = 0n;
  let something = false;
  for (;;) {
    rest = rest.replace(WHITESPACE, '');
    if (rest === '') return something ? { ok: true, usec: total } : invalid(`is empty; ${EXAMPLES}`);
    if (rest.startsWith('-')) return invalid('is negative; time spans are 0 or more');
    const number = STRTOLL.exec(rest);
    const integer = number ? BigInt(number[2]!) : 0n;
    if (number && integer > I64_MAX) return invalid('is out of range (too many digits)');
    if (number?.[1] === '-' && integer > 0n) return invalid('is negative; time spans are 0 or more');
    const afterInteger = number ? rest.slice(number[0].length) : rest;
    let fraction = '';
    if (afterInteger.startsWith('.')) fraction = /^\.(\d*)/.exec(afterInteger)![1]!;
    else if (!number)
      return invalid(something && /^\p{L}/u.test(rest) ? unknownUnit(rest) : `is not a time span; ${EXAMPLES}`);
    const afterNumber =
      fraction || afterInteger.startsWith('.') ? afterInteger.slice(1 + fraction.length) : afterInteger;
    const unitText = afterNumber.replace(WHITESPACE, '');
    const suffix = SUFFIXES.find(([name]) => unitText.startsWith(name));
    if (!suffix && unitText === afterNumber && unitText !== '') return invalid(unknownUnit(unitText));
    const multiplier = suffix?.[1] ?? SEC;
    rest = suffix ? unitText.slice(suffix[0].length) : unitText;
    if (integer >= U64_MAX / multiplier) return invalid('is out of range');
    total += integer * multiplier;
    if (afterInteger.startsWith('.')) {
      if (fraction === '') return invalid(`has a "." without digits after it; ${EXAMPLES}`);
      let digitValue = multiplier / 10n;
      for (const digit of fraction) {
        total += BigInt(digit) * digitValue;
        digitValue /= 10n;
      }
    }
    if (total >= U64_MAX) return invalid('is out of range');
    something = true;
  }
}

function unknownUnit(text: string): string {
  const unit = /^\S*/.exec(text)![0];
  return `has an unknown unit "${unit}"; use us, ms, s, min, h, d, w, M (months) or y, e.g. "90s" or "7 minutes"`;
}

/** Writes a span as systemd's format_timespan() does: `1min 30s`, `1.500000s`, `infinity`. */
export function formatSpan(usec: bigint | 'infinity', accuracyUsec: bigint = 1n): string {
  if (usec === 'infinity' || usec >= U64_MAX) return 'infinity';
  if (usec <= 0n) return '0';
  let rest = usec;
  const parts: string[] = [];
  for (const [suffix, size] of OUTPUT_UNITS) {
    if (rest <= 0n || (rest < accuracyUsec && parts.length > 0)) break;
    if (rest < size) continue;
    const whole = rest / size;
    let remainder = rest % size;
    if (rest < MIN && remainder > 0n) {
      let digits = size.toString().length - 1;
      for (let a = accuracyUsec; a > 1n; a /= 10n) {
        remainder /= 10n;
        digits -= 1;
      }
      if (digits > 0) {
        parts.push(`${whole}.${remainder.toString().padStart(digits, '0')}${suffix}`);
        break;
      }
    }
    parts.push(`${whole}${suffix}`);
    rest = remainder;
  }
  return parts.join(' ');
}

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

/**
 * A span in milliseconds for deadman's own settings and options. `infinity` is Infinity; a
 * span that is not 0 never rounds down to 0 (0 often means "off"), so it rounds up.
 */
export function parseDuration(text: string): DurationResult {
  const span = parseSpan(text);
  if (!span.ok) return span;
  if (span.usec === 'infinity') return { ok: true, ms: Number.POSITIVE_INFINITY };
  return { ok: true, ms: Number((span.usec + 999n) / 1000n) };
}

/** systemd's spelling to the second for messages and STATUS= lines: `30min`, `1h 5min`, `16s`, `500ms`. */
export function formatDuration(ms: number): string {
  if (ms === Number.POSITIVE_INFINITY) return 'infinity';
  return formatSpan(BigInt(Math.max(0, Math.round(ms))) * 1000n, SEC);
}

/** Coarse age for "is 4 days stale": the largest whole unit. */
export function formatAge(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
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
