import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseApprovalRequest, type ApprovalRequest } from '../core/incident/approval-request.ts';
import { writeFileAtomically } from './atomic-write.ts';
import { ensurePrivateDir } from './paths.ts';

/**
 * `<state dir>/approvals/<incident id>.json`: where `deadman approve`/`deny` leave a person's
 * answer and the running deadman takes it (at most one lstat per waiting incident and poll).
 * Only a regular file owned by deadman's own user or root counts: the directory is private, and
 * anyone else's file there is refused, so no other user can approve a kill.
 */

export function approvalRequestPath(stateDir: string, incidentId: number): string {
  return join(stateDir, 'approvals', `${incidentId}.json`);
}

export function writeApprovalRequest(stateDir: string, request: ApprovalRequest): string {
  ensurePrivateDir(join(stateDir, 'approvals'));
  const path = approvalRequestPath(stateDir, request.incident_id);
  // Readable by the run's user when root answers for it (who and when are no secret).
  writeFileAtomically(path, `${JSON.stringify(request)}\n`, 0o644);
  return path;
}

export interface ApprovalInbox {
  /** The answer waiting for this incident, removed as it is taken; null when there is none (or it is refused). */
  take(incidentId: number): ApprovalRequest | null;
}

export function approvalInbox(stateDir: string, warn: (message: string) => void): ApprovalInbox {
  const uid = process.getuid?.() ?? 0;
  try {
    // Made by the run, so it is the run user's: an answer written there by root stays readable.
    ensurePrivateDir(join(stateDir, 'approvals'));
  } catch {
    // A state directory that cannot be written is said once by the store; approve cannot write there either.
  }
  return {
    take(incidentId) {
      const path = approvalRequestPath(stateDir, incidentId);
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        return null; // ENOENT: nobody answered yet.
      }
      const request = stat.isFile() && (stat.uid === uid || stat.uid === 0) ? readRequest(path) : null;
      rmSync(path, { force: true });
      if (request?.incident_id === incidentId) return request;
      warn(`refused ${path}: not a request by deadman approve/deny of this user or root for incident ${incidentId}; it was removed`);
      return null;
    },
  };
}

function readRequest(path: string): ApprovalRequest | null {
  try {
    return parseApprovalRequest(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
