import { formatDuration } from '../time/duration.ts';

/**
 * The timeouts a service manager needs around one `deadman run`, derived from deadman's own
 * settings so the two never fight: systemd must not kill deadman while deadman is still
 * stopping the work cleanly, and must not give up on start-up while deadman still waits for
 * `ready_pattern`. Shared by the systemd unit and the launchd plist.
 */

export interface RunTimingSettings {
  inactivity: number;
  stop_grace: number;
  ready_timeout: number;
}

export interface UnitTimings {
  /** WatchdogSec=: how long a silent (stalled or wedged) deadman lives before systemd acts. */
  watchdogMs: number;
  /** RestartSec= / launchd ThrottleInterval: the pause before a restart. */
  restartMs: number;
  /** TimeoutStartSec=: above ready_timeout, which deadman enforces itself. */
  startTimeoutMs: number;
  /** TimeoutStopSec= / launchd ExitTimeOut: above stop_grace plus the final SIGKILL and record. */
  stopTimeoutMs: number;
}

export interface TimingOverrides {
  watchdogMs?: number | undefined;
  restartMs?: number | undefined;
}

const WATCHDOG_FLOOR_MS = 5_000;
const WATCHDOG_CEILING_MS = 60_000;
/** Not systemd's 100 ms: a crash loop should cost little, and a flaky API gets a moment. */
const DEFAULT_RESTART_MS = 30_000;
/** What deadman needs after stop_grace: SIGKILL the tree, wait for the exits, write the record. */
const STOP_MARGIN_MS = 20_000;
const START_MARGIN_MS = 30_000;

/**
 * The watchdog is a quarter of the inactivity limit, between 5 s and 60 s: small against the
 * inactivity limit (so a stall is acted on soon after deadman declares it), yet long enough
 * that a loaded host never delays two pings in a row into a false kill.
 */
export function deriveTimings(settings: RunTimingSettings, overrides: TimingOverrides = {}): UnitTimings {
  const quarter = settings.inactivity > 0 ? Math.round(settings.inactivity / 4) : WATCHDOG_CEILING_MS;
  const derived = Math.min(WATCHDOG_CEILING_MS, Math.max(WATCHDOG_FLOOR_MS, roundToSecond(quarter)));
  return {
    watchdogMs: overrides.watchdogMs ?? derived,
    restartMs: overrides.restartMs ?? DEFAULT_RESTART_MS,
    startTimeoutMs: roundToSecond(settings.ready_timeout + START_MARGIN_MS),
    stopTimeoutMs: roundToSecond(settings.stop_grace + STOP_MARGIN_MS),
  };
}

/** The comment above WatchdogSec=: what the number means for this run's stall handling. */
export function describeWatchdog(settings: RunTimingSettings, timings: UnitTimings): string[] {
  const ping = `deadman pings every ${formatDuration(timings.watchdogMs / 2)} while the work is healthy, and stops pinging`;
  if (settings.inactivity === 0) {
    return [
      `${ping} when an incident makes the run unhealthy (inactivity is off).`,
      `A wedged deadman is restarted within ${formatDuration(timings.watchdogMs)}.`,
    ];
  }
  return [
    `${ping} once there was no output for ${formatDuration(settings.inactivity)} (inactivity),`,
    `so systemd restarts a stalled run about ${formatDuration(settings.inactivity + timings.watchdogMs)} after its last output.`,
    `A wedged deadman is restarted within ${formatDuration(timings.watchdogMs)}.`,
  ];
}

function roundToSecond(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

/**
 * StartLimitBurst= for a unit whose run may revive `maxRevives` times: the first start, one per
 * revive and the start that finds the budget spent (exit 69, not restarted), and never below
 * systemd's own 5.
 */
export function startLimitBurst(maxRevives: number): number {
  return Math.max(5, maxRevives + 2);
}
