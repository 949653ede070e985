import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownKeysAt } from '../../lib/core/config/config.ts';
import { repoRoot, runDeadman } from '../helpers/cli.ts';

const example = readFileSync(join(repoRoot, 'deadman.toml.example'), 'utf8');

test('deadman.toml.example documents every key of the schema', () => {
  const sections: Array<[PropertyKey[], string]> = [
    [[], 'top level'],
    [['generic'], 'generic'],
    [['activity'], 'activity'],
    [['revive'], 'revive'],
    [['notify'], 'notify'],
    [['metrics'], 'metrics'],
    [['retention'], 'retention'],
    [['redact'], 'redact'],
    [['evidence', 0], 'evidence'],
    [['jobs', 'x'], 'jobs'],
  ];
  for (const [path, label] of sections) {
    for (const key of knownKeysAt(path)) {
      assert.match(
        example,
        new RegExp(`^#? ?(${key} = |\\[\\[?${key}[\\].])`, 'm'),
        `${label}: ${key} is not in deadman.toml.example`,
      );
    }
  }
});

test('deadman.toml.example is itself a valid config', async () => {
  const result = await runDeadman(['config', 'check', '--config', join(repoRoot, 'deadman.toml.example')]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});

test('deadman.toml.example gives each duration key the range the schema enforces', async () => {
  const { z } = await import('zod');
  const { configSchema } = await import('../../lib/core/config/config.ts');
  type Node = { properties?: Record<string, Node>; description?: string };
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Node;
  const sections: Array<[string, Node]> = [
    ['', schema],
    ...['revive', 'diagnose', 'retention'].map((name) => [name, schema.properties![name]!] as [string, Node]),
  ];
  let checked = 0;
  for (const [section, node] of sections) {
    const body = section === '' ? example.split(/^\[/m)[0]! : example.split(`\n[${section}]\n`)[1]!.split(/^\[/m)[0]!;
    for (const [key, property] of Object.entries(node.properties ?? {})) {
      const range = /^systemd time span .*?\): (.*)$/.exec(property.description ?? '')?.[1];
      if (range === undefined) continue;
      checked += 1;
      const line = new RegExp(`^${key} = .*# (.*)$`, 'm').exec(body);
      assert.equal(
        line?.[1],
        range,
        `[${section || 'top level'}] ${key}: the example says ${line?.[1]}, the schema ${range}`,
      );
    }
  }
  assert.ok(checked >= 13, `checked ${checked} duration keys`);
});
