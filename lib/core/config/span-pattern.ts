/**
 * The systemd.time(7) span syntax of parseSpan() as one regular expression, for the JSON Schema
 * (editors check a value as it is typed). It mirrors parseSpan's grammar: numbers (`5`, `1.5`,
 * `.5`, `+5`), each with a unit from systemd's suffix table or else followed by whitespace or
 * the end, with optional whitespace between. What a regex cannot say (overflow, each key's range)
 * the description says. test/core/config/json-schema.test.ts keeps it equal to parseSpan over the
 * duration corpus.
 */

const UNITS = [
  'seconds',
  'second',
  'sec',
  's',
  'minutes',
  'minute',
  'min',
  'months',
  'month',
  'M',
  'msec',
  'ms',
  'm',
  'hours',
  'hour',
  'hr',
  'h',
  'days',
  'day',
  'd',
  'weeks',
  'week',
  'w',
  'years',
  'year',
  'y',
  'usec',
  'us',
  '\u03bcs',
  '\u00b5s',
];

/** The whitespace systemd skips between parts; strtoll(3) also skips \v and \f before a number. */
const SPACE = '[ \\t\\n\\r]*';
const NUMBER = '(?:[ \\t\\n\\v\\f\\r]*\\+?[0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)';
/** A number without a unit must end at whitespace or the end: `12.34.56` and `5x` are refused. */
const PART = `${NUMBER}(?:${SPACE}(?:${UNITS.join('|')})|(?=[ \\t\\n\\r]|$))`;

/** A whole span; with `off`, also "off" and "infinity" (which such keys read as disabled). */
export function spanPattern(off: boolean): string {
  return `^${SPACE}(?:${off ? 'off|infinity|' : ''}${PART}(?:${SPACE}${PART})*)${SPACE}$`;
}
