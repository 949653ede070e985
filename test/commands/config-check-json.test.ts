import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/** The --json and --quiet of docs/cli-json.md: one document, snake_case, the same exit codes; quiet is silent while all is well. */
const SNAKE = /^[a-z]+(_[a-z]+)*$/;

function setUp(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const good = join(dir, 'good.toml');
  const bad = join(dir, 'bad.toml');
  writeFileSync(good, 'poll = "2s"\n');
  writeFileSync(bad, 'poll = "5x"\ninactivty = "1h"\n');
  return { dir, env, good, bad };
}

test('config check --json is one snake_case object with the paths, and exit 78 with the problems of a bad file', async (t) => {
  const { dir, env, good, bad } = setUp(t);
  const ok = await runDeadman(['config', 'check', '--json', '--config', good], { env });
  assert.equal(ok.code, 0, ok.stderr);
  const facts = JSON.parse(ok.stdout) as Record<string, unknown>;
  assert.ok(
    Object.keys(facts).every((key) => SNAKE.test(key)),
    Object.keys(facts).join(', '),
  );
  assert.deepEqual(
    [facts.ok, facts.config_file, facts.state_dir, facts.database, facts.problems],
    [true, good, join(dir, 'state'), join(dir, 'state', 'deadman.db'), []],
  );
  assert.equal(typeof facts.addon_loaded, 'boolean');

  const refused = await runDeadman(['config', 'check', '--json', '--config', bad], { env });
  assert.equal(refused.code, 78);
  const problems = JSON.parse(refused.stdout) as {
    ok: boolean;
    config_file: string;
    state_dir: null;
    problems: string[];
  };
  assert.deepEqual([problems.ok, problems.config_file, problems.state_dir], [false, bad, null]);
  assert.equal(problems.problems.length, 2);
  assert.match(problems.problems.join('\n'), /poll = "5x": has an unknown unit "x"/);
  assert.match(problems.problems.join('\n'), /did you mean "inactivity"/);
});

test('config check --quiet prints nothing for a good config and only the problem lines for a bad one', async (t) => {
  const { env, good, bad } = setUp(t);
  const ok = await runDeadman(['config', 'check', '--quiet', '--config', good], { env });
  assert.deepEqual([ok.code, ok.stdout, ok.stderr], [0, '', '']);
  const refused = await runDeadman(['config', 'check', '--quiet', '--config', bad], { env });
  assert.equal(refused.code, 78);
  const lines = refused.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.ok(
    lines.every((line) => line.startsWith(`problem: ${bad}: `)),
    refused.stdout,
  );
  const both = await runDeadman(['config', 'check', '--quiet', '--json'], { env });
  assert.equal(both.code, 64);
});

test('health --json says healthy: false with null times when no run wrote a health file (no such run: exit 64)', async (t) => {
  const { env } = setUp(t);
  const result = await runDeadman(['health', '--name', 'nobody', '--json'], { env });
  assert.equal(result.code, 64);
  assert.deepEqual(JSON.parse(result.stdout), {
    name: 'nobody',
    healthy: false,
    refreshed_at: null,
    last_status: null,
    detail:
      'nobody: no such run: no run of this name wrote a health file in this state directory (check --name, and state_dir or $STATE_DIRECTORY)',
  });
});

/** Every key of every --json document, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
}

test("every read command's --json is snake_case with ISO-8601 UTC times", async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: dir, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const stalled = await runDeadman(
    [
      'run',
      '--name',
      'styled',
      '--inactivity',
      '1s',
      '--poll',
      '250ms',
      '--stop-grace',
      '1s',
      '--',
      'sh',
      '-c',
      'echo hi; exec sleep 30',
    ],
    { env },
  );
  assert.equal(stalled.code, 75, stalled.stderr);
  const commands = [
    ['status'],
    ['incidents'],
    ['report', 'latest'],
    ['metrics'],
    ['revive', '--dry-run'],
    ['health', '--name', 'styled'],
    ['config', 'check'],
  ];
  for (const command of commands) {
    const result = await runDeadman([...command, '--json'], { env });
    const document = JSON.parse(result.stdout) as unknown;
    const keys = keysOf(document);
    assert.ok(keys.length > 0, `${command.join(' ')}: empty`);
    const bad = keys.filter((key) => !SNAKE.test(key) && !/^\d+$/.test(key));
    assert.deepEqual(bad, [], `${command.join(' ')} --json has keys not in snake_case`);
    for (const time of JSON.stringify(document).match(/"\d{4}-\d\d-\d\d[^"]*"/g) ?? [])
      assert.match(time, /^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/, command.join(' '));
  }
});
