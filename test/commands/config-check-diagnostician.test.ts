import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/** `config check` names the configured diagnostician and whether its key is set, and never prints the key. */

const KEY = 'sk-proj-NEVERPRINTEDxxxxxxxxxxxxxxxx';

async function check(t: { after(fn: () => void): void }, toml: string, env: Record<string, string> = {}) {
  const dir = tempDir(t);
  const file = join(dir, 'deadman.toml');
  writeFileSync(file, toml);
  return runDeadman(['config', 'check', '--config', file], {
    env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', ...env },
  });
}

test('the diagnostician line: rules by default, a command, a model API with its key present or missing', async (t) => {
  const table: Array<[string, Record<string, string>, RegExp]> = [
    ['', {}, /^diagnostician: rules \(deadman's own; no model is asked\)$/m],
    ['[diagnose]\ncommand = ["/bin/true"]\n', {}, /^diagnostician: command \["\/bin\/true"\]$/m],
    [
      '[diagnose]\ndiagnostician = "openai"\nmodel = "m-1"\napi_key_env = "DIAG_KEY"\n',
      { DIAG_KEY: KEY },
      /^diagnostician: openai Chat Completions, model m-1 at https:\/\/api\.openai\.com\/v1; key \$DIAG_KEY: present$/m,
    ],
    [
      '[diagnose]\ndiagnostician = "anthropic"\nmodel = "m-2"\nbase_url = "http://127.0.0.1:9/v1/"\n',
      { ANTHROPIC_API_KEY: '' },
      /^diagnostician: anthropic Messages, model m-2 at http:\/\/127\.0\.0\.1:9\/v1; key \$ANTHROPIC_API_KEY: MISSING/m,
    ],
  ];
  for (const [toml, env, line] of table) {
    const result = await check(t, toml, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, line);
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), 'the key is never printed');
  }
});

test('a model diagnostician without a model, or "command" without one, is a config error naming the key', async (t) => {
  for (const [toml, problem] of [
    ['[diagnose]\ndiagnostician = "openai"\n', /diagnose\.model.*needed with diagnostician = "openai"/],
    ['[diagnose]\ndiagnostician = "command"\n', /diagnose\.command.*needed with diagnostician = "command"/],
  ] as const) {
    const result = await check(t, toml);
    assert.equal(result.code, 78, result.stdout);
    assert.match(result.stdout, problem);
  }
});
