import { parseJsonOrUndefined } from '../json/parse-json.ts';

/**
 * A person's answer to an incident AWAITING_APPROVAL, as `deadman approve`/`deny` leave it in
 * the state directory for the running deadman: which run (its token, recorded in its run row:
 * incident numbers are counted per database, so a number alone could name another run's
 * incident), which incident, approve or deny, who and when (the audit the incident's timeline
 * keeps). Parsed by hand: the run path loads no zod. Pure.
 */
export interface ApprovalAnswer {
  /** The `runs.token` of the run that waits; no other run takes the answer. */
  run_token: string;
  incident_id: number;
  decision: 'approve' | 'deny';
  /** `alice (uid 1000)`, with the sudo caller when there is one. */
  by: string;
  /** ISO-8601 UTC. */
  at: string;
}

/** Tokens are UUIDs; anything else in a file name or a request is refused. */
export const RUN_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function parseApprovalAnswer(text: string): ApprovalAnswer | null {
  const value = parseJsonOrUndefined(text);
  if (typeof value !== 'object' || value === null) return null;
  const { run_token: token, incident_id: id, decision, by, at } = value as Record<string, unknown>;
  if (typeof token !== 'string' || !RUN_TOKEN.test(token)) return null;
  if (
    !Number.isSafeInteger(id) ||
    (decision !== 'approve' && decision !== 'deny') ||
    typeof by !== 'string' ||
    typeof at !== 'string'
  )
    return null;
  if (by.length === 0 || by.length > 200 || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(at)) return null;
  return { run_token: token, incident_id: id as number, decision, by, at };
}

/**
 * The commands a waiting run prints for a person, exactly as they must be typed: with the
 * `--state-dir` / `--database` the run used when a plain `deadman approve` would look elsewhere.
 */
export function answerCommands(incidentId: number, placeFlags: readonly string[]): { approve: string; deny: string } {
  const flags = placeFlags
    .map((flag) => ` ${/^[\w./=:@%+-]+$/.test(flag) ? flag : `'${flag.replaceAll("'", "'\\''")}'`}`)
    .join('');
  return { approve: `deadman approve ${incidentId}${flags}`, deny: `deadman deny ${incidentId}${flags}` };
}
