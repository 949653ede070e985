/**
 * What is recorded for a run whose deadman died without recording an end (SIGKILL, OOM, the
 * watchdog's abort, power loss), by the next run of its name or by a reader. The row is marked
 * `lost` on its own (migration 6), so `signal` is free to say what ended it: what systemd told
 * ExecStopPost= about the unit's main process when that reader runs there for this very run (same
 * invocation), else `watchdog` after a recorded stall (systemd's abort, most likely), else
 * `unknown`. Pure: the service manager's word comes in parsed (io/service-stop-env.ts).
 */

/** systemd's word on how the unit's main process ended ($INVOCATION_ID, $SERVICE_RESULT, $EXIT_CODE, $EXIT_STATUS). */
export interface ServiceStop {
  invocationId: string;
  /** success, exit-code, signal, core-dump, watchdog, timeout, oom-kill, … */
  result: string;
  /** Null when systemd saw no main process end (it never started). */
  exit: { code: 'exited'; status: number } | { code: 'killed' | 'dumped'; signal: string } | null;
}

export interface LostRunEnd {
  outcome: string;
  signal: string | null;
  /** The deadman's own exit status, when systemd saw it exit rather than die of a signal. */
  exit_code?: number;
  /** Undefined: a recorded stall keeps the reason it recorded. */
  reason?: string;
  lost: 1;
}

/** Results that say more than the signal they end with: the watchdog's abort (SIGABRT), the OOM killer's and a stop timeout's SIGKILL. */
const CAUSE_RESULTS: ReadonlySet<string> = new Set(['watchdog', 'oom-kill', 'timeout']);

const UNRECORDED = 'deadman ended without recording an exit';

export function lostRunEnd(
  run: { outcome: string | null; invocation_id?: string | null },
  stop: ServiceStop | null,
): LostRunEnd {
  const said = stop !== null && stop.invocationId === run.invocation_id ? stop : null;
  const stalled = run.outcome === 'stalled';
  const outcome = run.outcome ?? 'lost';
  if (said === null) {
    return {
      outcome,
      signal: stalled ? 'watchdog' : 'unknown',
      reason: stalled ? undefined : `${UNRECORDED} (killed, crashed or the host went down)`,
      lost: 1,
    };
  }
  const exitCode =
    said.exit?.code === 'exited' && !CAUSE_RESULTS.has(said.result) ? { exit_code: said.exit.status } : {};
  return {
    outcome,
    signal: causeOf(said),
    ...exitCode,
    reason: stalled ? undefined : `${UNRECORDED}; systemd says ${said.result}${exitText(said.exit)}`,
    lost: 1,
  };
}

/** The signal column: systemd's result where it names the cause, else the signal, else none (it exited with a status). */
function causeOf(stop: ServiceStop): string | null {
  if (CAUSE_RESULTS.has(stop.result)) return stop.result;
  if (stop.exit === null) return 'unknown';
  return stop.exit.code === 'exited' ? null : `SIG${stop.exit.signal}`;
}

function exitText(exit: ServiceStop['exit']): string {
  if (exit === null) return '';
  return exit.code === 'exited'
    ? ` (exit ${exit.status})`
    : ` (SIG${exit.signal}${exit.code === 'dumped' ? ', core dumped' : ''})`;
}
