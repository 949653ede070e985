import type { SdNotifier } from '../ports.ts';
import type { Repeater } from '../ports.ts';

/**
 * Feeds WATCHDOG=1 every WATCHDOG_USEC/2, but only when `healthy()` says so at that moment.
 * The timer lives on deadman's own event loop: if the loop wedges, the pings stop and systemd
 * kills deadman — the watchdog guards the guard. Never sd-notify's startWatchdogMode(), which
 * pings unconditionally. `every` is the loop's repeater port (the real one a plain interval).
 */
export function startWatchdog(
  notifier: SdNotifier,
  watchdogUsec: number | null,
  every: Repeater,
  healthy: () => boolean,
): () => void {
  if (watchdogUsec === null || notifier.path === 'none') return () => {};
  return every(Math.max(50, Math.floor(watchdogUsec / 2000)), () => {
    if (healthy()) notifier.send('WATCHDOG=1');
  });
}

/**
 * STATUS= only when the sentence changes. It names times of day (to the minute), not ages, so
 * an unchanged sentence is still true and needs no refresh (each send may be a process spawn
 * on the systemd-notify path).
 */
export function statusSender(notifier: SdNotifier): (line: string) => void {
  let last = '';
  return (line) => {
    if (line === last) return;
    last = line;
    notifier.send(`STATUS=${line}`);
  };
}
