import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/cli.ts';
import { runKillTrials } from '../helpers/kill-trials.ts';

test('30 random SIGKILLs of deadman during runs: markers parse, the database is intact, the next run starts', async (t) => {
  const result = await runKillTrials(tempDir(t), 30, 6);
  assert.deepEqual(result.failures, []);
});
