import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownKeysAt } from '../../lib/core/config/config.ts';
import { repoRoot, runDeadman } from '../helpers/cli.ts';

const example = readFileSync(join(repoRoot, 'deadman.toml.example'), 'utf8');

test('deadman.toml.example documents every key of the schema', () => {
  const sections: Array<[PropertyKey[], string]> = [[[], 'top level'], [['generic'], 'generic'], [['activity'], 'activity'], [['revive'], 'revive'], [['retention'], 'retention'], [['evidence', 0], 'evidence'], [['jobs', 'x'], 'jobs']];
  for (const [path, label] of sections) {
    for (const key of knownKeysAt(path)) {
      assert.match(example, new RegExp(`^#? ?(${key} = |\\[\\[?${key}[\\].])`, 'm'), `${label}: ${key} is not in deadman.toml.example`);
    }
  }
});

test('deadman.toml.example is itself a valid config', async () => {
  const result = await runDeadman(['config', 'check', '--config', join(repoRoot, 'deadman.toml.example')]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});
