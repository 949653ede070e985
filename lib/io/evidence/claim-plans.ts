import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { parsePlanValue, type ParsedPlan } from '../../core/claims/model-plan.ts';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';

/**
 * Plans for English claims the reader refused, kept in the state directory under the claim's
 * hash: `<hash>.proposed.json` (what the diagnostician answered, asked once) and
 * `<hash>.approved.json` (pinned by a person with `check --approve-plan`). An edited claim has
 * another hash, so it finds neither and needs a new approval. Each file is validated again on
 * every read (it is input like any other) and written atomically.
 */

export type PlanKind = 'proposed' | 'approved';

export interface PlanRecord {
  claim: string;
  /** The plan's claims as written (spans as text), validated again on every read. */
  claims: Array<Record<string, unknown>>;
  proposed_by: string;
  approved_by?: string;
  approved_at?: string;
}

export function claimHash(sentence: string): string {
  return createHash('sha256').update(sentence.trim()).digest('hex');
}

export function planPath(stateDir: string, sentence: string, kind: PlanKind): string {
  return join(stateDir, 'claim-plans', `${claimHash(sentence)}.${kind}.json`);
}

/** The stored plan, null when there is none, or why the file cannot serve. */
export function readPlan(
  stateDir: string,
  sentence: string,
  kind: PlanKind,
): { plan: ParsedPlan & { ok: true }; record: PlanRecord } | { problem: string } | null {
  const path = planPath(stateDir, sentence, kind);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { problem: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  const record = parseJsonOrUndefined(text) as PlanRecord | undefined;
  if (record === undefined || typeof record !== 'object' || record === null)
    return { problem: `${path} is not JSON; delete it and approve again` };
  if (record.claim !== sentence.trim()) return { problem: `${path} is for another claim; delete it and approve again` };
  const plan = parsePlanValue({ claims: record.claims });
  if (!plan.ok)
    return { problem: `${path} ${plan.problem.replace(/^answered with/, 'holds')}; delete it and approve again` };
  return { plan, record };
}

export function writePlan(stateDir: string, kind: PlanKind, record: PlanRecord): string {
  ensurePrivateDir(join(stateDir, 'claim-plans'));
  const path = planPath(stateDir, record.claim, kind);
  writeFileAtomically(path, `${JSON.stringify({ ...record, claim: record.claim.trim() }, null, 2)}\n`, 0o600);
  return path;
}
