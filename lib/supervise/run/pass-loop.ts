import { ExitCode } from '../../exit-codes.ts';
import type { Logger } from '../ports.ts';
import type { PassResult } from './outcome.ts';
import type { EarlierBackoffs } from '../../core/detect/usage-limit.ts';
import type { PendingVerification } from '../tick/resumed-verification.ts';
import { nextPassAfter } from '../../core/signals/registry.ts';

/**
 * The passes of one run, one agent process each: after a pass whose kind's row has a next pass,
 * a usage limit waits for its reset, a repeated failure resumes with guidance, an over-budget
 * session respawns, each in a new pass. The
 * decisions live here once; `deadman run` hands in the real edges (spawn, the handoff file, the
 * in-process wait) and `deadman replay` the simulated ones, so a replay runs the same loop.
 */

/** Why a pass after the first started: the outcome of the pass before it. */
export type PassReason = 'cancel-resume' | 'respawn' | 'usage-limit';

/** `backoffMs`: how long a backoff wait (no known reset, or a throttle) lasted; null for a wait for a stated reset. */
export type UsageWaitEnd =
  { resume: true; backoffMs: number | null } | { resume: false; exitCode: number; reraise: NodeJS.Signals | null };

export interface PassEdges<Pass> {
  /** Supervises one agent process; a number when it was refused before it started. `why` is null for the first pass. */
  supervise(pass: Pass, why: PassReason | null, verifying: PendingVerification | null): Promise<PassResult | number>;
  /** The same session resumed: told `guidance` after a repeated failure, null after a usage wait (the revive path's own message). */
  resume(pass: Pass, guidance: string | null): Pass;
  /** After an over-budget session: a fresh one carrying the handoff; null when there is no task to start one with. */
  respawn(pass: Pass, result: PassResult): Pass | null;
  /** `earlier`: the backoff waits taken in a row just before (usage-limit.ts bounds them). */
  waitForUsageReset(result: PassResult, earlier: EarlierBackoffs): Promise<UsageWaitEnd>;
  /** A recovery no pass will follow (the respawn was not started): its incident escalates, with why. */
  unsettled?(pending: PendingVerification, why: string): void;
  logger: Logger;
}

/** How the run ends: its exit code, or the stop signal to die of once the edges are closed. */
export interface PassesEnd {
  exitCode: number;
  reraise: NodeJS.Signals | null;
}

/** `maxRespawns` bounds CHECKPOINT_AND_RESPAWN: a task whose every fresh session runs over budget must not respawn forever. */
export async function supervisePasses<Pass>(
  first: Pass,
  maxRespawns: number,
  edges: PassEdges<Pass>,
): Promise<PassesEnd> {
  let pass = first;
  let why: PassReason | null = null;
  let respawns = 0;
  let backoffs: EarlierBackoffs = { count: 0, waitedMs: 0 };
  /** A resume's or respawn's incident, settled by the pass that follows it. */
  let verifying: PendingVerification | null = null;
  for (;;) {
    const result = await edges.supervise(pass, why, verifying);
    if (typeof result === 'number') return { exitCode: result, reraise: null };
    verifying = result.verifying ?? null;
    if (result.reraise) return { exitCode: result.exitCode, reraise: result.reraise };
    const next = nextPassAfter(result.outcome);
    if (next !== 'resume-after-reset') backoffs = { count: 0, waitedMs: 0 };
    if (next === 'resume-with-guidance') {
      pass = edges.resume(pass, result.resumeGuidance ?? result.reason);
    } else if (next === 'respawn') {
      if (++respawns > maxRespawns) {
        edges.logger.log(
          'error',
          `CHECKPOINT_AND_RESPAWN: ${respawns - 1} fresh sessions in a row ran over budget; stopping (exit ${ExitCode.DO_NOT_RESTART}: do not restart)`,
        );
        if (verifying)
          edges.unsettled?.(verifying, `no fresh session followed: ${respawns - 1} in a row ran over budget`);
        return { exitCode: ExitCode.DO_NOT_RESTART, reraise: null };
      }
      const fresh = edges.respawn(pass, result);
      if (!fresh) {
        if (verifying)
          edges.unsettled?.(verifying, 'no fresh session followed: the command has no task to start one with');
        return { exitCode: result.exitCode, reraise: null };
      }
      pass = fresh;
    } else if (next === 'resume-after-reset') {
      const waited = await edges.waitForUsageReset(result, backoffs);
      if (!waited.resume) return { exitCode: waited.exitCode, reraise: waited.reraise };
      backoffs =
        waited.backoffMs === null
          ? { count: 0, waitedMs: 0 }
          : { count: backoffs.count + 1, waitedMs: backoffs.waitedMs + waited.backoffMs };
      pass = edges.resume(pass, null);
    } else {
      return { exitCode: result.exitCode, reraise: null };
    }
    why = result.outcome as PassReason;
  }
}
