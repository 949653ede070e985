/**
 * The start of "today" at `now` in a time zone: the day of the machine that holds the files (its
 * clock and its zone are inputs, never this process's). Pure; Intl supplies the zone's rules.
 */

const DAY_MS = 86_400_000;

export function startOfDay(now: number, timeZone: string): number {
  const offset = zoneOffset(now, timeZone);
  const local = now + offset;
  const midnight = local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
  // A change of offset (daylight saving) between midnight and now: midnight's own offset counts.
  return midnight - zoneOffset(midnight - offset, timeZone);
}

/** The local date at `at` in the zone, as YYYY-MM-DD. */
export function localDate(at: number, timeZone: string): string {
  return new Date(Math.floor(at / 1000) * 1000 + zoneOffset(at, timeZone)).toISOString().slice(0, 10);
}

/** A fixed offset east of UTC as a zone these functions take (`+05:30`): a container's `date +%z`. */
export function offsetZone(minutesEast: number): string {
  const abs = Math.abs(minutesEast);
  return `${minutesEast < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * How far the zone's wall clock is ahead of UTC at `at`, in ms. A fixed offset is read here, not
 * by Intl: Node 22's Intl knows zone names only.
 */
function zoneOffset(at: number, timeZone: string): number {
  const fixed = /^([+-])(\d{2}):(\d{2})$/.exec(timeZone);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])) * 60_000;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}
