import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  answerCommands,
  parseApprovalAnswer,
  RUN_TOKEN,
  type ApprovalAnswer,
} from '../../core/incident/approval-answer.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { namesIn } from '../files/quiet-reads.ts';
import { currentPathContext, ensurePrivateDir, resolveStateDir, statePaths, type StatePaths } from '../files/paths.ts';

/**
 * `<state dir>/approvals/<run token>.<incident id>.json`: where `deadman approve`/`deny` leave
 * a person's answer and the running deadman whose token it names takes it (at most one lstat
 * per waiting incident and poll). A file of another run, or of a run that is gone, is never
 * read by this one. Only a regular file owned by deadman's own user or root counts: the
 * directory is private, and anyone else's file there is refused, so no other user can approve
 * a kill.
 */

export function approvalAnswerPath(stateDir: string, runToken: string, incidentId: number): string {
  if (!RUN_TOKEN.test(runToken)) throw new Error(`not a run token: ${JSON.stringify(runToken)}`);
  return join(stateDir, 'approvals', `${runToken}.${incidentId}.json`);
}

export function writeApprovalAnswer(stateDir: string, request: ApprovalAnswer): string {
  ensurePrivateDir(join(stateDir, 'approvals'));
  const path = approvalAnswerPath(stateDir, request.run_token, request.incident_id);
  // Readable by the run's user when root answers for it (who and when are no secret).
  writeFileAtomically(path, `${JSON.stringify(request)}\n`, 0o644);
  return path;
}

/** The run's approval inbox (the loop's port: supervise/ports.ts ApprovalInbox). */
export function approvalInbox(paths: StatePaths, runToken: string, warn: (message: string) => void) {
  const uid = process.getuid?.() ?? 0;
  const { stateDir } = paths;
  try {
    // Made by the run, so it is the run user's: an answer written there by root stays readable.
    ensurePrivateDir(join(stateDir, 'approvals'));
  } catch {
    // A state directory that cannot be written is said once by the store; approve cannot write there either.
  }
  const flags = placeFlags(paths);
  return {
    take(incidentId: number): ApprovalAnswer | null {
      const path = approvalAnswerPath(stateDir, runToken, incidentId);
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        return null; // ENOENT: nobody answered yet.
      }
      const request = stat.isFile() && (stat.uid === uid || stat.uid === 0) ? readAnswer(path) : null;
      rmSync(path, { force: true });
      if (request?.incident_id === incidentId && request.run_token === runToken) return request;
      warn(
        `refused ${path}: not a request by deadman approve/deny of this user or root for incident ${incidentId} of this run; it was removed`,
      );
      return null;
    },
    commands: (incidentId: number) => answerCommands(incidentId, flags),
    discard() {
      const dir = join(stateDir, 'approvals');
      for (const file of namesIn(dir)) if (file.startsWith(`${runToken}.`)) rmSync(join(dir, file), { force: true });
    },
  };
}

/**
 * What `deadman approve` needs to find this run's database and state directory when typed in
 * a shell without this run's environment ($STATE_DIRECTORY of a unit, --state-dir, --database):
 * each one that is not where a plain command of this user would look.
 */
function placeFlags(paths: StatePaths): string[] {
  const shell = currentPathContext();
  const plainStateDir = resolveStateDir({ ...shell, env: { XDG_STATE_HOME: shell.env.XDG_STATE_HOME } });
  const flags: string[] = [];
  if (paths.stateDir !== plainStateDir) flags.push('--state-dir', paths.stateDir);
  if (paths.database !== statePaths(paths.stateDir).database) flags.push('--database', paths.database);
  return flags;
}

function readAnswer(path: string): ApprovalAnswer | null {
  try {
    return parseApprovalAnswer(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
