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

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function zoneOffset(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}
