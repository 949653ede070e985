/**
 * SESSION_BUDGET_RISK: the agent's own usage telemetry — tokens (Codex turn totals as deltas,
 * Claude `usage`) and cost (Claude `total_cost_usd`) — crossed `budget.tokens` or
 * `budget.cost_usd`. Off when the limit is 0, and off without telemetry: nothing is estimated.
 * Pure.
 */
export interface UsageTotals {
  tokens: number;
  /** Null until the agent reported a cost. */
  costUsd: number | null;
}

export function detectBudgetRisk(
  totals: UsageTotals,
  budget: { tokens: number; costUsd: number },
): { message: string } | null {
  if (budget.tokens > 0 && totals.tokens >= budget.tokens)
    return { message: `the session used ${totals.tokens} tokens, at or over budget.tokens (${budget.tokens})` };
  if (budget.costUsd > 0 && totals.costUsd !== null && totals.costUsd >= budget.costUsd) {
    return {
      message: `the session cost $${totals.costUsd.toFixed(2)}, at or over budget.cost_usd ($${budget.costUsd.toFixed(2)})`,
    };
  }
  return null;
}
