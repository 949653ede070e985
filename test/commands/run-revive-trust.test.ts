import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { markInterrupted, newMarker, withSessionId } from '../../lib/core/revive/marker.ts';
import { markerPath, writeMarker } from '../../lib/io/revive/markers.ts';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent, killAgentLeftovers, processesWithEnv } from '../helpers/fake-agent.ts';

/**
 * Issue 12 end to end: forged or edited markers are never executed, the command line given
 * wins over the marker's, markers of another state directory are never used, and a session
 * whose agent outlived its supervisor is not doubled.
 */

const ID = '01a23100-0000-7000-8000-00000000beef';

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  const markers = join(state, 'markers');
  const log = join(dir, 'argv.jsonl');
  const pwned = join(dir, 'PWNED');
  const env = {
    ...process.env,
    STATE_DIRECTORY: state,
    NOTIFY_SOCKET: '',
    FAKE_AGENT_ARGV_LOG: log,
    FAKE_AGENT_SCENARIO: 'complete',
    DEADMAN_CONFIG: '',
  };
  const command = (task: string) => [process.execPath, fakeAgent, 'codex', 'exec', '--json', '-s', 'read-only', task];
  const run = (args: string[], task = 'the real task') =>
    runDeadman(['run', '--adapter', 'codex', '--poll', '250ms', ...args, '--', ...command(task)], { env, cwd: dir });
  /** An interrupted marker deadman itself wrote for this command. */
  const genuine = (name = 'job') => {
    const started = newMarker({
      name,
      adapter: 'codex',
      argv: command('the real task'),
      cwd: dir,
      owner: { pid: 999_999, startTime: 1 },
      now: Date.now() - 60_000,
    });
    writeMarker(
      markers,
      markInterrupted(withSessionId(started, ID, Date.now() - 60_000), 'exit 137', Date.now() - 60_000),
    );
  };
  const edit = (change: (value: Record<string, unknown>) => void) => {
    const path = markerPath(markers, 'job');
    const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    change(value);
    writeFileSync(path, JSON.stringify(value));
  };
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[revive]\ndelay = "0"\n');
  const revive = (...args: string[]) => runDeadman(['revive', '--config', config, ...args], { env, cwd: dir });
  return { dir, state, markers, log, pwned, env, run, revive, genuine, edit, database: join(state, 'deadman.db') };
}

type Setup = ReturnType<typeof setup>;

const TAMPERING: Record<string, (s: Setup, t: { after(fn: () => void): void }) => void> = {
  'edited argv': (s) => s.edit((value) => (value.argv = ['/bin/sh', '-c', `touch ${s.pwned}`])),
  'edited resume flags': (s) =>
    s.edit(
      (value) =>
        (value.argv = [
          ...(value.argv as string[]).slice(0, -1),
          '--dangerously-bypass-approvals-and-sandbox',
          'the real task',
        ]),
    ),
  'foreign uid': (s, t) => {
    const outer = tempDir(t);
    chmodSync(outer, 0o711);
    mkdirSync(join(outer, 'w'), { mode: 0o777 });
    chmodSync(join(outer, 'w'), 0o777);
    const forged = join(outer, 'w', 'job.json');
    const text = readFileSync(markerPath(s.markers, 'job'), 'utf8').replace(
      /"argv": \[[^\]]*\]/,
      `"argv": ["/bin/sh", "-c", "touch ${s.pwned}"]`,
    );
    const written = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', '-c', 'cat > "$1"', 'sh', forged],
      { input: text },
    );
    assert.equal(written.status, 0, String(written.stderr));
    renameSync(forged, markerPath(s.markers, 'job'));
  },
  '0777 markers directory': (s) => {
    s.edit((value) => (value.argv = ['/bin/sh', '-c', `touch ${s.pwned}`]));
    chmodSync(s.markers, 0o777);
  },
  'wrong version': (s) => s.edit((value) => (value.version = 1)),
  'symlinked marker file': (s, t) => {
    const elsewhere = join(tempDir(t), 'job.json');
    renameSync(markerPath(s.markers, 'job'), elsewhere);
    symlinkSync(elsewhere, markerPath(s.markers, 'job'));
  },
  'symlinked markers directory': (s, t) => {
    const elsewhere = join(tempDir(t), 'elsewhere');
    renameSync(s.markers, elsewhere);
    symlinkSync(elsewhere, s.markers);
  },
};

const untrustedDirectory = (form: string) => form.includes('directory');
const skipUnlessRoot = (form: string, t: { skip(message: string): void }) =>
  form === 'foreign uid' && process.geteuid?.() !== 0 && (t.skip('needs root to write as another uid'), true);

for (const [form, tamper] of Object.entries(TAMPERING)) {
  test(`${form}: refused by run, one line, recorded, the forged command never runs`, async (t) => {
    if (skipUnlessRoot(form, t)) return;
    const s = setup(t);
    s.genuine();
    tamper(s, t);
    const before = readdirSync(s.markers).sort();
    const result = await s.run(['--name', 'job']);
    assert.equal(result.code, 0, result.stderr);
    // Said once; the summary at the end (a block's indented lines, or its one line in a journal) names the incident again.
    const refusals = result.stderr
      .split('\n')
      .filter(
        (line) =>
          /revive marker .* refused/.test(line) &&
          !line.startsWith('deadman:   ') &&
          !line.startsWith('deadman: summary of run '),
      );
    assert.equal(refusals.length, 1, result.stderr);
    assert.equal(existsSync(s.pwned), false, 'the forged command did not run');
    const ran = argvLog(s.log);
    assert.equal(ran.length, 1);
    assert.ok(
      !ran[0]!.includes('resume') && !ran[0]!.includes('--dangerously-bypass-approvals-and-sandbox'),
      JSON.stringify(ran[0]),
    );
    assert.equal(ran[0]!.at(-1), 'the real task', 'the command given ran fresh');
    const rows = query<{ outcome: string }>(s.database, "SELECT outcome FROM revives WHERE outcome LIKE 'refused:%'");
    assert.equal(rows.length, 1);
    await assertRefusalIncident(s, !untrustedDirectory(form));
    if (untrustedDirectory(form))
      assert.deepEqual(readdirSync(s.markers).sort(), before, 'nothing is written into an untrusted directory');
  });

  test(`${form}: refused by revive, one line, recorded, nothing started`, async (t) => {
    if (skipUnlessRoot(form, t)) return;
    const s = setup(t);
    s.genuine();
    tamper(s, t);
    const before = readdirSync(s.markers).sort();
    const result = await s.revive();
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr.split('\n').filter((line) => /revive marker .* refused/.test(line)).length,
      1,
      result.stderr,
    );
    assert.equal(existsSync(s.pwned), false);
    assert.equal(argvLog(s.log).length, 0, 'revive started nothing');
    if (untrustedDirectory(form))
      assert.deepEqual(readdirSync(s.markers).sort(), before, 'nothing is written into an untrusted directory');
    else assert.equal(existsSync(markerPath(s.markers, 'job')), false, 'moved aside');
    await assertRefusalIncident(s, !untrustedDirectory(form));
    const [run] = query<{ outcome: string; argv: string[] }>(s.database, 'SELECT outcome, argv FROM runs');
    assert.deepEqual(
      { ...run },
      { outcome: 'revive-refused', argv: [] },
      'a run row that started nothing, nothing from the marker in it',
    );
  });
}

/**
 * The refusal is an escalated REVIVE_REFUSED incident naming the file, why and (when it could
 * be) where it was moved, with nothing from the marker in it; `incidents`, `report` and
 * `status` (exit 1) all show it.
 */
async function assertRefusalIncident(s: Setup, movedAside: boolean): Promise<void> {
  const incidents = query<{ kind: string; state: string; message: string }>(
    s.database,
    'SELECT kind, state, message FROM incidents',
  );
  assert.equal(incidents.length, 1, JSON.stringify(incidents));
  const [incident] = incidents;
  assert.equal(incident!.kind, 'REVIVE_REFUSED');
  assert.equal(incident!.state, 'ESCALATED');
  assert.match(incident!.message, /^revive marker \S+job\.json refused: /);
  assert.doesNotMatch(incident!.message, /PWNED|touch|dangerously/, 'nothing from the marker is recorded');
  const aside = readdirSync(s.markers).find((file) => file.startsWith('job.json.refused-'));
  if (movedAside)
    assert.ok(aside && incident!.message.includes(`moved to ${join(s.markers, aside)}`), incident!.message);
  else assert.match(incident!.message, /not reviving "job"/);

  const listed = await runDeadman(['incidents', '--json'], { env: s.env, cwd: s.dir });
  assert.deepEqual(
    (JSON.parse(listed.stdout) as Array<{ kind: string }>).map((row) => row.kind),
    ['REVIVE_REFUSED'],
    listed.stderr,
  );
  const report = await runDeadman(['report', 'latest'], { env: s.env, cwd: s.dir });
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /REVIVE_REFUSED/);
  assert.match(report.stdout, /moved aside unread/, 'with its advice');
  const status = await runDeadman(['status', '--json'], { env: s.env, cwd: s.dir });
  assert.equal(status.code, 1, 'a refused marker needs attention');
  const row = (JSON.parse(status.stdout) as Array<{ name: string; state: string; needs_attention: boolean }>).find(
    (r) => r.name === 'job',
  );
  assert.deepEqual({ state: row?.state, attention: row?.needs_attention }, { state: 'refused', attention: true });
}

test("the refusal is stored and printed redacted: a secret in the marker's path never reaches the records", async (t) => {
  const s = setup(t);
  s.genuine();
  s.edit((value) => (value.argv = ['/bin/sh', '-c', `touch ${s.pwned}`]));
  const secret = basename(s.dir);
  const result = await runDeadman(['revive', '--config', join(s.dir, 'deadman.toml')], {
    env: { ...s.env, DEPLOY_TOKEN: secret },
    cwd: s.dir,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /revive marker \S*\[REDACTED\]\S* refused/);
  assert.doesNotMatch(result.stderr, new RegExp(secret));
  const [incident] = query<{ kind: string; message: string }>(s.database, 'SELECT kind, message FROM incidents');
  assert.equal(incident!.kind, 'REVIVE_REFUSED');
  assert.match(incident!.message, /\[REDACTED\]/);
  assert.doesNotMatch(incident!.message, new RegExp(secret));
});

test('two tasks of the same program run as two jobs; the same task after a crash resumes', async (t) => {
  const s = setup(t);
  const crashA = await runDeadman(
    ['run', '--adapter', 'codex', '--', process.execPath, fakeAgent, 'codex', 'exec', '--json', 'task A: migrate'],
    { env: { ...s.env, FAKE_AGENT_SCENARIO: 'crash' }, cwd: s.dir },
  );
  assert.equal(crashA.code, 137, crashA.stderr);
  await killAgentLeftovers(s.log);
  const names = readdirSync(s.markers).filter((file) => file.endsWith('.json'));
  assert.equal(names.length, 1);
  assert.match(names[0]!, /^node-[0-9a-f]{6}\.json$/, 'basename and a hash of the identity');

  const taskB = await runDeadman(
    [
      'run',
      '--adapter',
      'codex',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'task B: release notes',
    ],
    { env: s.env, cwd: s.dir },
  );
  assert.equal(taskB.code, 0, taskB.stderr);
  assert.doesNotMatch(taskB.stderr, /revived session/);
  assert.equal(argvLog(s.log).at(-1)!.at(-1), 'task B: release notes', 'task B ran its own task');

  const againA = await runDeadman(
    ['run', '--adapter', 'codex', '--', process.execPath, fakeAgent, 'codex', 'exec', '--json', 'task A: migrate'],
    { env: s.env, cwd: s.dir },
  );
  assert.equal(againA.code, 0, againA.stderr);
  assert.match(againA.stderr, /revived session \S+ \(1\/5\)/);
  assert.ok(argvLog(s.log).at(-1)!.includes('resume'));
  const status = await runDeadman(['status', '--json'], { env: s.env, cwd: s.dir });
  const shown = (JSON.parse(status.stdout) as Array<{ name: string }>).map((row) => row.name);
  assert.equal(shown.length, 2, 'status shows both generated names');
  assert.ok(shown.includes(names[0]!.slice(0, -'.json'.length)));
});

test('with the same --name, another prompt runs fresh and says why in one line', async (t) => {
  const s = setup(t);
  s.genuine();
  const result = await s.run(['--name', 'job'], 'another task');
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /not reviving "job": the prompt differs from the interrupted command's; running the command given/,
  );
  assert.equal(argvLog(s.log).at(-1)!.at(-1), 'another task');
});

test('--database alone keeps markers beside it: a marker of the shared state directory is never used', async (t) => {
  const s = setup(t);
  s.genuine();
  const database = join(s.dir, 'other', 'records.db');
  mkdirSync(join(s.dir, 'other'), { mode: 0o700 });
  const result = await s.run(['--name', 'job', '--database', database]);
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /revived session/);
  assert.ok(existsSync(markerPath(`${database}.markers`, 'job')));
  const stateDir = join(s.dir, 'elsewhere-state');
  const moved = await s.run(['--name', 'job', '--state-dir', stateDir]);
  assert.equal(moved.code, 0, moved.stderr);
  assert.ok(
    existsSync(join(stateDir, 'deadman.db')) && existsSync(markerPath(join(stateDir, 'markers'), 'job')),
    '--state-dir moves both',
  );
  assert.doesNotMatch(moved.stderr, /revived session/);
});

test('an agent that outlived its SIGKILLed supervisor is not doubled by the next run or by revive', async (t) => {
  const s = setup(t);
  const first = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--name',
      'job',
      '--adapter',
      'codex',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'the real task',
    ],
    { env: { ...s.env, FAKE_AGENT_SCENARIO: 'silent' }, cwd: s.dir, stdio: 'ignore' },
  );
  t.after(() => killAgentLeftovers(s.log));
  await waitFor(
    () =>
      existsSync(markerPath(s.markers, 'job')) &&
      /"sessionId": "/.test(readFileSync(markerPath(s.markers, 'job'), 'utf8')),
    5000,
    'the session id in the marker',
  );
  process.kill(first.pid!, 'SIGKILL');
  await new Promise((resolve) => first.on('exit', resolve));
  const orphan = processesWithEnv('FAKE_AGENT_ARGV_LOG', s.log);
  assert.ok(orphan.length > 0, 'the agent is still alive, orphaned');

  const second = await s.run(['--name', 'job']);
  assert.equal(second.code, 75, second.stderr);
  assert.match(second.stderr, /its session still has a live process \(pid \d+\); not starting a second supervisor/);
  const revive = await s.revive('--dry-run', '--json');
  const rows = JSON.parse(revive.stdout) as Array<{ action: string; reason: string }>;
  assert.deepEqual(
    rows.map((row) => row.action),
    ['skip'],
  );
  const revived = await s.revive();
  assert.equal(revived.code, 0, revived.stderr);
  assert.doesNotMatch(revived.stderr, /revived session/);
  assert.equal(argvLog(s.log).length, 1, 'one agent only');
});
