import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClaudeAdapter } from '../../lib/core/adapters/claude.ts';
import { claudeLines } from '../../lib/demo/fake-agent-lines.ts';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import { fakeRun, settle, testConfig } from './fakes.ts';

/**
 * A real child's exit event can come before its last lines are read (seen under load: an agent
 * printing its usage limit and exiting at once was concluded as a plain failure, exit 1). The
 * fake child here reports its exit first and writes its last line after: the run still reads it
 * before the final look for a usage limit.
 */
test('the last lines written after the exit is reported are read before the run concludes', async () => {
  const run = fakeRun({ adapter: createClaudeAdapter() });
  const result = runPass(
    { argv: ['claude'], cwd: '/', env: {}, runTag: '0'.repeat(32), config: testConfig(), onStall: 'exit' },
    run.ports,
  );
  await settle();
  const id = 'c0ffee00-0000-4000-8000-000000000003';
  run.child.print(`${JSON.stringify(claudeLines.init(id, '/'))}\n`);
  await settle();
  run.child.emit('exit', 1, null);
  await settle();
  run.child.print(`${JSON.stringify(claudeLines.rateLimitRejected(id, 1_781_000_000))}\n`);
  run.child.stdout.end();
  run.child.stderr.end();
  const ended = await result;
  assert.equal(ended.outcome, 'usage-limit', ended.reason);
  assert.equal(ended.usageResetAt, 1_781_000_000_000);
});
