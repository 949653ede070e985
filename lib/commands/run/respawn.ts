import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { taskOf, withTask } from '../../core/adapters/replace-task.ts';
import { detectAdapter } from '../../core/adapters/index.ts';
import { renderHandoff, respawnPrompt } from '../../core/incident/handoff.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { writeFileAtomically } from '../../io/files/atomic-write.ts';
import type { PassResult } from '../../supervise/run/outcome.ts';

/**
 * CHECKPOINT_AND_RESPAWN's edge: write the handoff to `<state dir>/handoffs/<name>-<time>.md`
 * and build the fresh session's command — the ORIGINAL task (from `originalCommand`, the first
 * pass's: a respawned pass's prompt already holds a handoff) plus the latest handoff's state
 * (handoff.ts: bounded, never nested). Null (and one line why) when the command has no task to
 * carry over.
 */
export function prepareRespawn(
  result: PassResult,
  run: {
    name: string;
    command: string[];
    originalCommand: readonly string[];
    stateDir: string;
    adapter: 'auto' | 'codex' | 'claude' | 'generic';
    logger: Logger;
  },
  now: Date,
): { command: string[]; handoffPath: string } | null {
  const adapter = detectAdapter(run.command, run.adapter);
  const task = taskOf(run.originalCommand, adapter);
  if (task === null) {
    run.logger.log(
      'error',
      'CHECKPOINT_AND_RESPAWN: the command has no task on its command line to start a fresh session with',
    );
    return null;
  }
  const input = {
    name: run.name,
    task,
    reason: result.reason,
    attempts: result.handoffAttempts ?? [],
    filesChanged: result.handoffFiles ?? [],
    guidance: result.handoffGuidance ?? null,
  };
  const handoff = renderHandoff(input);
  const dir = join(run.stateDir, 'handoffs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const handoffPath = join(dir, `${run.name}-${now.toISOString().replace(/[:.]/g, '-')}.md`);
  writeFileAtomically(handoffPath, handoff, 0o600);
  run.logger.log('notice', `CHECKPOINT_AND_RESPAWN: handoff written to ${handoffPath}; starting a fresh session`);
  const prompt = respawnPrompt(task, input, handoffPath);
  return { command: withTask(run.command, adapter, prompt)!, handoffPath };
}
