import type { ProcessInfo } from './process-info.ts';
import { isZombie, type ProcessIdentity } from './owned-tree.ts';

/** Processes deadman must never signal, whatever a detector concluded. */
export interface SignalGuards {
  selfPid: number;
  parentPid: number;
  /** The supervised root (the agent), or null when stopping the whole run makes it a target too. */
  rootPid: number | null;
}

export type SignalDecision = { ok: true } | { ok: false; reason: string };

/**
 * The last check before each signal, made on a fresh read of the process (`current`). Between
 * observing a process and signalling it, it may have exited and its pid been given to an
 * unrelated process: only pid + start time + ownership together make it the same process.
 */
export function checkSignalTarget(
  expected: ProcessIdentity,
  current: Pick<ProcessInfo, 'pid' | 'startTime' | 'state'> | null,
  owned: boolean,
  guards: SignalGuards,
): SignalDecision {
  const { pid } = expected;
  if (!Number.isInteger(pid) || pid <= 0) return refuse(`pid ${pid} would signal a process group or every process`);
  if (pid === 1) return refuse('pid 1 is init');
  if (pid === guards.selfPid) return refuse(`pid ${pid} is deadman itself`);
  if (pid === guards.parentPid) return refuse(`pid ${pid} is deadman's parent`);
  if (pid === guards.rootPid) return refuse(`pid ${pid} is the supervised root (the agent), never a recovery target`);
  if (!current || current.pid !== pid) return refuse(`pid ${pid} has exited`);
  if (current.startTime !== expected.startTime) {
    return refuse(
      `pid ${pid} was reused by another process (start time ${current.startTime}, expected ${expected.startTime})`,
    );
  }
  if (isZombie(current)) return refuse(`pid ${pid} has exited (zombie)`);
  if (!owned) return refuse(`pid ${pid} is no longer part of the supervised tree`);
  return { ok: true };
}

function refuse(reason: string): SignalDecision {
  return { ok: false, reason };
}
