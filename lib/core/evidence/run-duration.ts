import { formatDuration } from '../time/duration.ts';
import { combinedState, type JobVerdict, type Verdict } from './evidence.ts';

/**
 * "Tell me when a job finishes too fast": a job's last run judged by how long it took. A backup
 * that ends in 2 s instead of 20 min exited 0 and did nothing; one that took 9 h is hung or
 * drowning. Too fast and too slow are dead; a run still going is dead once it is over
 * `max_duration`, else alive (its end is not known yet); no run known at all is unknown — the
 * check cannot tell, and a watcher never fails open. Pure: times are milliseconds on whatever
 * clock `last` was read with, `nowMs` on the same one.
 */

export interface DurationBounds {
  min_duration?: number | undefined;
  max_duration?: number | undefined;
}

/** The job's last run as read from its unit or deadman's record; `source` names it in reasons ("backup.service"). */
export type LastRun =
  | { state: 'none'; why: string }
  | { state: 'running'; startedMs: number }
  | { state: 'ended'; startedMs: number; endedMs: number };

/** The claim name the duration verdict is reported and recorded under. */
export const DURATION_CLAIM = 'duration';

export function judgeRunDuration(bounds: DurationBounds, source: string, last: LastRun, nowMs: number): Verdict {
  const verdict = (state: Verdict['verdict'], reason: string): Verdict => ({
    claim: DURATION_CLAIM,
    kind: 'duration',
    verdict: state,
    reason,
  });
  const { min_duration: min, max_duration: max } = bounds;
  if (last.state === 'none') return verdict('unknown', `no run of ${source} known: ${last.why}`);
  if (last.state === 'running') {
    const sofar = Math.max(0, nowMs - last.startedMs);
    if (max !== undefined && sofar > max)
      return verdict(
        'dead',
        `${source} has been running for ${formatDuration(sofar)}, longer than max_duration ${formatDuration(max)}: too slow`,
      );
    return verdict('alive', `${source} is running (for ${formatDuration(sofar)})`);
  }
  const took = last.endedMs - last.startedMs;
  if (took < 0) return verdict('unknown', `${source}'s last run ended before it started; check the clocks`);
  if (min !== undefined && took < min)
    return verdict(
      'dead',
      `${source}'s last run took ${formatDuration(took)}, shorter than min_duration ${formatDuration(min)}: too fast`,
    );
  if (max !== undefined && took > max)
    return verdict(
      'dead',
      `${source}'s last run took ${formatDuration(took)}, longer than max_duration ${formatDuration(max)}: too slow`,
    );
  return verdict('alive', `${source}'s last run took ${formatDuration(took)}`);
}

/** The job's verdicts with the duration verdict added, its state combined again. */
export function withDurationVerdict(result: JobVerdict, duration: Verdict): JobVerdict {
  const claims = [...result.claims, duration];
  return { ...result, verdict: combinedState(claims), claims };
}

/** The properties `systemctl show` is asked for, in the order parseUnitRun reads them. */
export const UNIT_RUN_PROPERTIES = [
  'LoadState',
  'ExecMainStartTimestampMonotonic',
  'ExecMainExitTimestampMonotonic',
] as const;

/**
 * `systemctl show -p …` of a service → its last run on CLOCK_MONOTONIC (ms). systemd clears the
 * exit timestamp when the main process starts again, so a start without an exit is a run still
 * going; a start of 0 is no run it remembers.
 */
export function parseUnitRun(text: string): LastRun {
  const props = new Map(
    text.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
  const load = props.get('LoadState');
  if (load !== 'loaded') return { state: 'none', why: `the unit is not loaded (LoadState=${load ?? '?'})` };
  const micros = (key: string) => {
    const value = props.get(key) ?? '';
    return /^\d+$/.test(value) ? Number(value) / 1000 : null;
  };
  const [started, exited] = [micros('ExecMainStartTimestampMonotonic'), micros('ExecMainExitTimestampMonotonic')];
  if (started === null || exited === null)
    return { state: 'none', why: 'systemctl show gave no start and exit timestamps' };
  // systemd unloads an inactive unit nothing refers to (no timer, no dependency), and forgets its run with it.
  if (started === 0)
    return {
      state: 'none',
      why: 'systemd keeps no run of it (none since the manager started, or the unit was unloaded: nothing, such as a timer, refers to it)',
    };
  return exited === 0
    ? { state: 'running', startedMs: started }
    : { state: 'ended', startedMs: started, endedMs: exited };
}
