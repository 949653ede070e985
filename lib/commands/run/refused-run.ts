import { randomUUID } from 'node:crypto';
import { ExitCode } from '../../exit-codes.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { ownStartTime } from '../../io/process/process-identity.ts';
import type { RunRecords, RunRow } from '../../supervise/records/records.ts';
import type { Refusal } from './start-decision.ts';

/** A run row of this deadman process: the invocation and the pid are always its own. */
export function thisProcessRun(row: Omit<RunRow, 'invocationId' | 'pid' | 'pidStartTime' | 'token'>): RunRow {
  return {
    ...row,
    invocationId: process.env.INVOCATION_ID ?? null,
    pid: process.pid,
    pidStartTime: ownStartTime(),
    token: randomUUID(),
  };
}

/**
 * A run that must not start (revive budget spent, another live supervisor), recorded the same
 * by `deadman run` and `deadman revive`: its run row, a HALT_AND_ESCALATE incident when a person
 * must look before the session is prompted again, and one error line (`line`, the reason by default).
 */
export function recordRefusal(
  records: RunRecords,
  row: RunRow,
  refusal: Refusal,
  logger: Logger,
  line = refusal.reason,
): void {
  records.refusedRun(row, { ...refusal, halt: refusal.outcome === 'revive-exhausted' });
  logger.log(
    'error',
    `${line} (exit ${refusal.exitCode}${refusal.exitCode === ExitCode.DO_NOT_RESTART ? ': do not restart' : ''})`,
  );
}
