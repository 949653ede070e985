/**
 * A reset time as an agent prints it for people — Claude's "resets 2pm (Europe/Berlin)",
 * "resets 3:58pm (UTC)"; Codex's "try again at 3:54 PM" or "try again at Dec 4th, 2026 3:54 PM"
 * — made an instant. The text is cut to the minute (the real reset was 15:54:19 for "3:54 PM";
 * 16:00:52 for "4pm"), so the instant is the END of the stated minute: resuming at its start
 * would come up to 59 s early and hit the limit again. Without a date it is the next such
 * minute to end after the moment the line was printed (a minute already over today is
 * tomorrow's). No zone means the host's own zone, the one the agent formatted it in. Pure: the
 * moment is passed in; the zone rules are the runtime's (Intl).
 */

export interface ClockTime {
  hour: number;
  minute: number;
  /** An IANA zone name, or null for the host's zone. */
  timeZone: string | null;
  /** A calendar day, when the text named one (Codex's form for a reset after today); month 1–12. */
  date?: { year: number; month: number; day: number };
}

const MINUTE_MS = 60_000;

/** Epoch ms of the end of the next stated minute after `fromWall`; null when the zone is unknown or the time impossible. */
export function nextClockTime(time: ClockTime, fromWall: number): number | null {
  if (time.hour > 23 || time.minute > 59) return null;
  let zone: Intl.DateTimeFormat;
  try {
    zone = new Intl.DateTimeFormat('en-US', {
      timeZone: time.timeZone ?? undefined,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  const day = time.date ?? localParts(zone, fromWall);
  const endOn = (days: number) =>
    instantOf(zone, Date.UTC(day.year, day.month - 1, day.day + days, time.hour, time.minute)) + MINUTE_MS;
  if (time.date) return endOn(0);
  const todays = endOn(0);
  return todays > fromWall ? todays : endOn(1);
}

/** The zone's wall-clock fields at an instant. */
function localParts(
  zone: Intl.DateTimeFormat,
  at: number,
): { year: number; month: number; day: number; asUtc: number } {
  const parts = Object.fromEntries(
    zone
      .formatToParts(at)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  );
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return { year, month, day, asUtc: Date.UTC(year, month - 1, day, hour, minute, second) };
}

/** The instant whose wall clock in the zone reads `localAsUtc` (a local time written as if it were UTC); twice, for a DST change in between. */
function instantOf(zone: Intl.DateTimeFormat, localAsUtc: number): number {
  let at = localAsUtc;
  for (let i = 0; i < 2; i += 1) at = localAsUtc - (localParts(zone, at).asUtc - (at - (at % 1000)));
  return at;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The 24-hour hour of a 12- or 24-hour clock reading ("3" + "PM" → 15); null when impossible. */
export function hourOf(hourText: string, half: string | undefined): number | null {
  const hour = Number(hourText);
  if (!half) return hour;
  if (hour < 1 || hour > 12) return null;
  return (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
}

/** "Dec 4th, 2026" (chrono's `%b %-d{suffix}, %Y`, any month name spelled out or cut to three letters); undefined when it is no date. */
export function dateOf(monthText: string, dayText: string, yearText: string): ClockTime['date'] | undefined {
  const month = MONTHS.indexOf(monthText.slice(0, 3).toLowerCase()) + 1;
  const day = Number(dayText);
  if (month === 0 || day < 1 || day > 31) return undefined;
  return { year: Number(yearText), month, day };
}
