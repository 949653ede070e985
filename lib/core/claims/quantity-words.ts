/**
 * The words of a quantity in a claim ("two hours", "10 MB", "100 lines"): units with what they
 * are worth, and numbers written as words. Part of the reader's vocabulary (claim-words.ts).
 */

/** Age units → milliseconds. */
export const AGE_UNITS: Readonly<Record<string, number>> = {
  second: 1000,
  seconds: 1000,
  sec: 1000,
  secs: 1000,
  s: 1000,
  minute: 60_000,
  minutes: 60_000,
  min: 60_000,
  mins: 60_000,
  m: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  h: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
  d: 86_400_000,
  week: 604_800_000,
  weeks: 604_800_000,
  w: 604_800_000,
};

/** Size units → bytes: KB, MB, GB are decimal (1000), KiB, MiB, GiB binary (1024), as `ls --si` and `ls -h` print them. */
export const SIZE_UNITS: Readonly<Record<string, number>> = {
  byte: 1,
  bytes: 1,
  b: 1,
  kb: 1000,
  k: 1000,
  kib: 1024,
  mb: 1_000_000,
  mib: 1_048_576,
  gb: 1_000_000_000,
  gib: 1_073_741_824,
};

/** What a count of lines is called. */
export const LINE_WORDS = new Set(['lines', 'line', 'rows', 'row', 'records', 'record', 'entries', 'entry']);

/** Numbers written as words ("in the last two hours"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
