/**
 * A reset time as an agent prints it for people — "resets 2pm (Europe/Berlin)", "resets
 * 14:00" — made an instant: the next time that wall-clock time comes in that zone, at or after
 * the moment the line was printed (a time already past today is tomorrow's). No zone means
 * the host's own zone, the one the agent formatted it in. Pure: the moment is passed in; the
 * zone rules are the runtime's (Intl).
 */

export interface ClockTime {
  hour: number;
  minute: number;
  /** An IANA zone name, or null for the host's zone. */
  timeZone: string | null;
}

const MINUTE_MS = 60_000;

/** Epoch ms of the next `time` at or after `fromWall`; null when the zone is unknown or the time impossible. */
export function nextClockTime(time: ClockTime, fromWall: number): number | null {
  if (time.hour > 23 || time.minute > 59) return null;
  let zone: Intl.DateTimeFormat;
  try {
    zone = new Intl.DateTimeFormat('en-US', {
      timeZone: time.timeZone ?? undefined, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return null;
  }
  const today = localParts(zone, fromWall);
  const on = (days: number) => instantOf(zone, Date.UTC(today.year, today.month - 1, today.day + days, time.hour, time.minute));
  // The text has minute precision: the current minute is now, not tomorrow.
  const todays = on(0);
  return todays > fromWall - MINUTE_MS ? todays : on(1);
}

/** The zone's wall-clock fields at an instant. */
function localParts(zone: Intl.DateTimeFormat, at: number): { year: number; month: number; day: number; asUtc: number } {
  const parts = Object.fromEntries(zone.formatToParts(at).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return { year, month, day, asUtc: Date.UTC(year, month - 1, day, hour, minute, second) };
}

/** The instant whose wall clock in the zone reads `localAsUtc` (a local time written as if it were UTC); twice, for a DST change in between. */
function instantOf(zone: Intl.DateTimeFormat, localAsUtc: number): number {
  let at = localAsUtc;
  for (let i = 0; i < 2; i += 1) at = localAsUtc - (localParts(zone, at).asUtc - (at - (at % 1000)));
  return at;
}
