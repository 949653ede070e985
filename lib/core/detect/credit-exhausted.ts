/**
 * CREDIT_EXHAUSTED: the agent said its account's credit or spend limit is spent (Codex
 * "Quota exceeded. Check your plan and billing details." / `insufficient_quota` / a spend limit;
 * Claude's `billing_error`, "Credit balance is too low"). Unlike a usage limit there is no reset
 * to wait for, and unlike a crash a restart only runs into the same wall: a person must add
 * credit. Pure.
 */
export function detectCreditExhausted(seen: { message: string } | null): { message: string } | null {
  return seen && { message: `${seen.message}: no reset to wait for, a person must add credit` };
}
