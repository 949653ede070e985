import type { Job } from '../../core/config/config.ts';
import {
  judgeRunDuration,
  parseUnitRun,
  UNIT_RUN_PROPERTIES,
  withDurationVerdict,
  type LastRun,
} from '../../core/evidence/run-duration.ts';
import type { JobVerdict, Verdict } from '../../core/evidence/evidence.ts';
import { runBounded } from '../process/bounded-run.ts';
import { CHECK_CONCURRENCY } from './evidence.ts';
import { mapBounded } from './map-bounded.ts';
import type { Store } from '../store/store.ts';

/**
 * A job's last run for min_duration/max_duration: from systemd (`systemctl [--user] show` of its
 * `unit`, on CLOCK_MONOTONIC, which node's hrtime reads too) or from deadman's own record of the
 * last run named `run` (wall clock). Null for a job with no duration bounds.
 */

const SYSTEMCTL_TIMEOUT_MS = 10_000;

/** The jobs' verdicts (in the jobs' order) with each bounded job's duration verdict added. */
export function addDurationVerdicts(
  results: readonly JobVerdict[],
  jobs: ReadonlyArray<[string, Job]>,
  store: Store,
  wallNow: () => number,
): Promise<JobVerdict[]> {
  return mapBounded(results, CHECK_CONCURRENCY, async (result, i) => {
    const duration = await judgeJobDuration(jobs[i]![1], store, wallNow);
    return duration === null ? result : withDurationVerdict(result, duration);
  });
}

export async function judgeJobDuration(job: Job, store: Store, wallNow: () => number): Promise<Verdict | null> {
  if (job.min_duration === undefined && job.max_duration === undefined) return null;
  if (job.unit !== undefined) {
    const last = await unitLastRun(job.unit, job.manager ?? 'system');
    return judgeRunDuration(job, job.unit, last, monotonicNowMs());
  }
  return judgeRunDuration(job, `run ${job.run!}`, recordedLastRun(store, job.run!), wallNow());
}

async function unitLastRun(unit: string, manager: 'system' | 'user'): Promise<LastRun> {
  const argv = [
    'systemctl',
    ...(manager === 'user' ? ['--user'] : []),
    'show',
    '-p',
    UNIT_RUN_PROPERTIES.join(','),
    '--',
    unit,
  ];
  const outcome = await runBounded({ argv, timeoutMs: SYSTEMCTL_TIMEOUT_MS });
  if (outcome.kind === 'exited' && outcome.code === 0) return parseUnitRun(outcome.stdout);
  const why =
    outcome.kind === 'not-started'
      ? outcome.error
      : outcome.kind === 'exited'
        ? `exit ${outcome.code}: ${outcome.stderr.trim().split('\n').pop() ?? ''}`
        : outcome.kind;
  return { state: 'none', why: `${argv.slice(0, manager === 'user' ? 2 : 1).join(' ')} show failed (${why})` };
}

function recordedLastRun(store: Store, name: string): LastRun {
  const [row] = store.all<{ started_at: number; ended_at: number | null }>(
    'SELECT started_at, ended_at FROM runs WHERE name = ? ORDER BY started_at DESC, id DESC LIMIT 1',
    name,
  );
  if (row === undefined) return { state: 'none', why: 'deadman has recorded no run of that name' };
  return row.ended_at === null
    ? { state: 'running', startedMs: row.started_at }
    : { state: 'ended', startedMs: row.started_at, endedMs: row.ended_at };
}

function monotonicNowMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}
