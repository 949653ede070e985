import { readClaim } from './read-claim.ts';

/**
 * `[[evidence]]` blocks written as `claim = "…"` (for `deadman run`), read before the config
 * schema sees them: each becomes the typed claim's keys as a TOML author would write them, with
 * the block's own `name`, `when`, `interval` and `grace`. A run cannot stop to ask a person, so a
 * sentence the reader refuses is a config problem (exit 78), never a model's plan.
 */

export interface ReadEvidence {
  raw: Record<string, unknown>;
  /** One line per refused sentence: `evidence[0].claim: does not understand "x" …`. */
  problems: string[];
}

export function readEnglishEvidence(raw: Record<string, unknown>): ReadEvidence {
  const evidence = raw.evidence;
  if (!Array.isArray(evidence) || !evidence.some(isEnglishBlock)) return { raw, problems: [] };
  const problems: string[] = [];
  const read = evidence.map((block: unknown, index) => {
    if (!isEnglishBlock(block)) return block;
    const { claim, ...common } = block;
    if (typeof claim !== 'string') return block;
    const reading = readClaim(claim);
    if (!reading.ok) {
      problems.push(`evidence[${index}].claim: ${reading.refusal.reason}`);
      return block;
    }
    return { ...reading.inputs[0], ...common };
  });
  return { raw: { ...raw, evidence: read }, problems };
}

function isEnglishBlock(block: unknown): block is Record<string, unknown> & { claim: unknown } {
  return typeof block === 'object' && block !== null && 'claim' in block && !('kind' in block);
}
