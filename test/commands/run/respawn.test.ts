import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tempDir } from '../../helpers/cli.ts';
import { prepareRespawn } from '../../../lib/commands/run/respawn.ts';
import { MAX_HANDOFF_STATE_CHARS } from '../../../lib/core/incident/handoff.ts';
import type { PassResult } from '../../../lib/supervise/run/outcome.ts';

/**
 * Handoffs do not nest: ten CHECKPOINT_AND_RESPAWNs in a row, each from the command the one
 * before built. Each fresh prompt holds the original task once and only the latest handoff's
 * state; its size stays flat (before: 618 → 1,430 → 3,054 → 6,302 → 12,798 bytes over five, 16
 * "# Handoff" headers in the fifth), within the documented bound, however long the session's
 * command history and its last failure were.
 */

const TASK = 'make the parser tests pass';

function overBudget(pass: number): PassResult {
  const attempts = Array.from({ length: 60 }, (_, i) => ({
    command: `npm test -- --shard ${pass}/${i} ${'x'.repeat(200)}`,
    exitCode: 1,
    outputTail: `FAIL ${'y'.repeat(500)}\n`.repeat(40),
    ok: false,
  }));
  return {
    exitCode: 75,
    reraise: null,
    outcome: 'respawn',
    reason: `the session used ${50_000 + pass} tokens, at or over budget.tokens (10000)`,
    clean: true,
    sessionId: null,
    handoffAttempts: attempts,
    handoffFiles: Array.from({ length: 150 }, (_, i) => `/repo/src/file-${pass}-${i}.ts`),
  };
}

test('10 respawns in a row: the original task once, the latest state only, every prompt within the bound', (t) => {
  const stateDir = tempDir(t);
  const logger = { log: () => {} };
  const original = ['codex', 'exec', '--json', TASK];
  let command = original;
  const sizes: number[] = [];
  for (let pass = 1; pass <= 10; pass += 1) {
    const fresh = prepareRespawn(
      overBudget(pass),
      { name: 'job', command, originalCommand: original, stateDir, adapter: 'auto', logger },
      new Date(Date.UTC(2026, 11, 3, 12, 0, pass)),
    );
    assert.ok(fresh, `pass ${pass}`);
    command = fresh.command;
    const prompt = command.at(-1)!;
    sizes.push(Buffer.byteLength(prompt));
    assert.equal(prompt.split(TASK).length - 1, 1, `pass ${pass}: the task once`);
    assert.ok(
      prompt.startsWith(
        `${TASK}\n\nA previous session on this task was ended by deadman (the session used ${50_000 + pass} tokens`,
      ),
      `pass ${pass}: the latest reason`,
    );
    assert.equal((prompt.match(/## What was done/g) ?? []).length, 1, `pass ${pass}: one handoff state`);
    assert.doesNotMatch(prompt, /# Handoff/, 'the prompt does not embed an earlier handoff file');
    assert.doesNotMatch(prompt, new RegExp(`shard ${pass - 1}/`), 'nothing of the pass before');
    assert.ok(prompt.length <= TASK.length + 400 + MAX_HANDOFF_STATE_CHARS, `pass ${pass}: ${prompt.length} chars`);
    const file = readFileSync(fresh.handoffPath, 'utf8');
    assert.ok(
      file.startsWith(`# Handoff: job\n`) && file.includes(`## Task\n${TASK}\n`),
      'the handoff file stands alone, with the task',
    );
  }
  assert.ok(Math.max(...sizes) - Math.min(...sizes) < 64, `flat, not growing: ${sizes.join(', ')} bytes`);
});

test("the diagnostician's guidance for a respawn goes into the handoff and the fresh prompt", (t) => {
  const stateDir = tempDir(t);
  const result = {
    ...overBudget(1),
    handoffAttempts: [],
    handoffFiles: [],
    handoffGuidance: 'the session used 50001 tokens\n\nThe diagnostician adds: split the parser work from the docs',
  };
  const fresh = prepareRespawn(
    result,
    {
      name: 'job',
      command: ['codex', 'exec', '--json', TASK],
      originalCommand: ['codex', 'exec', '--json', TASK],
      stateDir,
      adapter: 'auto',
      logger: { log: () => {} },
    },
    new Date(),
  );
  assert.match(
    readFileSync(fresh!.handoffPath, 'utf8'),
    /## Guidance\nthe session used 50001 tokens\n\nThe diagnostician adds: split the parser work from the docs\n\n## Open questions/,
  );
  assert.match(fresh!.command.at(-1)!, /The diagnostician adds: split the parser work from the docs/);
});
