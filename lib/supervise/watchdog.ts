import type { Notifier } from '../io/notify.ts';

/**
 * Feeds WATCHDOG=1 every WATCHDOG_USEC/2, but only when `healthy()` says so at that moment.
 * The timer lives on deadman's own event loop: if the loop wedges, the pings stop and systemd
 * kills deadman — the watchdog guards the guard. Never sd-notify's startWatchdogMode(), which
 * pings unconditionally.
 */
export function startWatchdog(notifier: Notifier, watchdogUsec: number | null, healthy: () => boolean): () => void {
  if (watchdogUsec === null || notifier.path === 'none') return () => {};
  const everyMs = Math.max(50, Math.floor(watchdogUsec / 2000));
  const timer = setInterval(() => {
    if (healthy()) notifier.send('WATCHDOG=1');
  }, everyMs);
  return () => clearInterval(timer);
}

/**
 * STATUS= only when the sentence changes in substance, or every `refreshMs` so the ages in it
 * stay roughly current (each send may be a process spawn on the systemd-notify path).
 */
export function statusSender(notifier: Notifier, refreshMs = 10_000): (line: string, now: number) => void {
  let lastKey = '';
  let lastSentAt = -Infinity;
  return (line, now) => {
    const key = line.replace(/\d+(ms|[smhd])\b/g, '#');
    if (key === lastKey && now - lastSentAt < refreshMs) return;
    lastKey = key;
    lastSentAt = now;
    notifier.send(`STATUS=${line}`);
  };
}
