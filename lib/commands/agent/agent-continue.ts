import { readFileSync } from 'node:fs';
import type { AgentKind } from '../../core/adapters/program.ts';
import { afterUsageLimit } from '../../core/detect/auto-continue.ts';
import { lastUsageLimit } from '../../core/session/session-limit.ts';
import type { Logger } from '../../core/ports/logger.ts';
import type { Clock } from '../../core/time/clock.ts';
import type { Repeater } from '../../supervise/ports.ts';

/**
 * `deadman agent` beside an agent that may continue by itself at a usage limit's reset (Claude
 * Code's auto-continue): every poll its session file is read for the last limit and what came
 * after it (session-limit.ts), and the rule (auto-continue.ts) says whether the agent resumed on
 * its own — then nothing is sent, once said in the journal — or stayed silent past the reset
 * plus `usage_limit.continue_grace`, when `onContinue` is called, once: deadman then resumes the
 * session with a prompt (agent.ts).
 */

/** The prompt the resumed TUI is started with when the agent did not continue by itself. */
export const CONTINUE_PROMPT = 'Your usage limit has reset. Continue the task where you left off.';

export interface ContinueWatch {
  agent: AgentKind;
  graceMs: number;
  clock: Pick<Clock, 'wall'>;
  every: Repeater;
  pollMs: number;
  logger: Logger;
  /** The `saidAt` of a limit already answered by resuming with the prompt: the resumed agent's transcript still holds it, and it is not answered twice. */
  answeredLimitAt: number | null;
  onContinue(reason: string, limitAt: number): void;
}

/** Starts watching `path`; returns the stop. */
export function watchAutoContinue(path: string, watch: ContinueWatch): () => void {
  let saidAt = watch.answeredLimitAt;
  let told = saidAt !== null;
  const stop = watch.every(watch.pollMs, () => {
    let lines: string[];
    try {
      lines = readFileSync(path, 'utf8').split('\n');
    } catch {
      return; // moved or removed: nothing to judge this poll
    }
    const limit = lastUsageLimit(watch.agent, lines);
    // A new limit is a new case: judged afresh.
    if (limit !== null && limit.saidAt !== saidAt) [saidAt, told] = [limit.saidAt, false];
    const verdict = afterUsageLimit(limit, watch.clock.wall(), watch.graceMs);
    if (told || (verdict !== 'resumed' && verdict !== 'continue')) return;
    told = true;
    if (verdict === 'resumed') {
      watch.logger.log('notice', `${watch.agent} continued by itself after its usage limit: no prompt sent`);
      return;
    }
    const reason = `${watch.agent} did not continue within usage_limit.continue_grace after its usage limit reset`;
    watch.logger.log('notice', `${reason}: resuming the session with a prompt to continue`);
    watch.onContinue(reason, saidAt!);
  });
  return stop;
}
