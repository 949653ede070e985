/**
 * A person's answer to an incident AWAITING_APPROVAL, as `deadman approve`/`deny` leave it in
 * the state directory for the running deadman: which incident, approve or deny, who and when
 * (the audit the incident's timeline keeps). Parsed by hand: the run path loads no zod. Pure.
 */
export interface ApprovalRequest {
  incident_id: number;
  decision: 'approve' | 'deny';
  /** `alice (uid 1000)`, with the sudo caller when there is one. */
  by: string;
  /** ISO-8601 UTC. */
  at: string;
}

export function parseApprovalRequest(text: string): ApprovalRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { incident_id: id, decision, by, at } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || (decision !== 'approve' && decision !== 'deny') || typeof by !== 'string' || typeof at !== 'string') return null;
  if (by.length === 0 || by.length > 200 || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(at)) return null;
  return { incident_id: id as number, decision, by, at };
}
