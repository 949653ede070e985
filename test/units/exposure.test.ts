import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../../lib/io/units/executable.ts';
import { repoRoot, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';
import { workDir } from './workload.ts';

/**
 * `systemd-analyze security --offline=true` of every unit deadman generates (system and --user,
 * root and another User=, the work under /tmp and elsewhere, the --on-failure companion, each
 * --sandbox level but "off", which asks for none) and ships. Each score is printed; above 6.0
 * fails. A --user unit is scored by a user manager's rules too (`--user`), and the worse counts.
 */

const TARGET = 6.0;
const analyze = findExecutable('systemd-analyze', process.env.PATH ?? '');

async function exposure(file: string, user: boolean, runtime: string): Promise<number> {
  const result = await runProgram(
    analyze!,
    [...(user ? ['--user'] : []), 'security', '--offline=true', '--no-pager', file],
    { env: { ...process.env, XDG_RUNTIME_DIR: runtime } },
  );
  const score = /Overall exposure level for \S+: (\d+\.\d)/.exec(result.stdout)?.[1];
  assert.ok(score, `${file}: ${result.stdout.slice(-300)}${result.stderr}`);
  return Number(score);
}

/** Unit files of `deadman unit ARGS`: the unit and, with --on-failure, its companion. */
async function generated(dir: string, label: string, args: string[], cwd: string): Promise<string[]> {
  const result = await runDeadman(['unit', '--name', label, ...args, '--', 'sleep', '60'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  const [unit, companion] = result.stdout.split(/^# ---- .* ----$/m);
  const files = [[`${label}.service`, unit!], ...(companion ? [[`${label}-notify.service`, companion]] : [])];
  return files.map(([name, text]) => {
    writeFileSync(join(dir, name!), text!);
    return join(dir, name!);
  });
}

test(
  'every generated and shipped unit scores below 6.0 in systemd-analyze security',
  { skip: !analyze && 'systemd-analyze is not installed' },
  async (t) => {
    const dir = tempDir(t);
    const runtime = join(dir, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    const elsewhere = workDir(t, homedir());
    const underTmp = tempDir(t);
    const variants: Array<[string, string[], string]> = [
      ['system-root', ['--run-as', 'root', '--on-failure'], elsewhere],
      ['system-root-tmp', ['--run-as', 'root'], underTmp],
      ['system-other-user', ['--run-as', 'nobody', '--on-failure'], elsewhere],
      ['system-root-strict', ['--run-as', 'root', '--sandbox', 'strict'], elsewhere],
      ['user', ['--user', '--on-failure'], elsewhere],
      ['user-tmp', ['--user'], underTmp],
      ['user-strict', ['--user', '--sandbox', 'strict'], elsewhere],
    ];
    const scored: Array<[string, number]> = [];
    for (const [label, args, cwd] of variants) {
      for (const file of await generated(dir, label, args, cwd)) {
        const user = args.includes('--user');
        const score = Math.max(await exposure(file, false, runtime), user ? await exposure(file, true, runtime) : 0);
        scored.push([`generated ${file.slice(dir.length + 1)}`, score]);
      }
    }
    for (const file of readdirSync(join(repoRoot, 'units')).filter((f) => f.endsWith('.service'))) {
      scored.push([`shipped ${file}`, await exposure(join(repoRoot, 'units', file), false, runtime)]);
    }
    for (const [label, score] of scored) t.diagnostic(`exposure ${score.toFixed(1)}  ${label}`);
    assert.deepEqual(
      scored.filter(([, score]) => score >= TARGET),
      [],
      `at or above ${TARGET}`,
    );
  },
);

test('--sandbox off writes no sandboxing: the operator asked for none', async (t) => {
  const result = await runDeadman(['unit', '--name', 'bare', '--sandbox', 'off', '--', 'true'], { cwd: tempDir(t) });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^# Sandboxing: none \(--sandbox off\)/m);
  assert.doesNotMatch(result.stdout, /^(ProtectSystem|NoNewPrivileges|SystemCallFilter)=/m);
  assert.equal(
    readFileSync(join(repoRoot, 'docs', 'systemd.md'), 'utf8').includes('--sandbox off'),
    true,
    'docs/systemd.md describes it',
  );
});
