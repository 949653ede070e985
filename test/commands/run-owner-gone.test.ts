import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { fakeAgent, processesWithEnv } from '../helpers/fake-agent.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

/**
 * A run whose deadman is gone, and approvals bound to their run: real deadman processes, each
 * at a hung tool waiting in AWAITING_APPROVAL (no --auto-recover), then SIGKILLed, timed out,
 * or answered beside another run with its own database in the same state directory.
 */

interface Place {
  dir: string;
  state: string;
  config: string;
  collector: string;
  env: NodeJS.ProcessEnv;
}

function place(t: { after(fn: () => void): void }): Place {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  const collector = join(dir, 'collector');
  mkdirSync(collector);
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(state)}\n[metrics]\ntextfile = "${collector}/deadman-{name}.prom"\n`,
  );
  // Every process of the test carries the tag: what a SIGKILLed deadman leaves is found and killed after.
  const env = {
    ...process.env,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: '',
    STATE_DIRECTORY: '',
    DEADMAN_TEST_TAG: randomUUID(),
  };
  const made = { dir, state, config, collector, env };
  t.after(() => killTagged(made));
  return made;
}

/** What a SIGKILLed deadman left running (its agent and the agent's tool), found by the tag and killed. */
function killTagged(p: Place): void {
  for (const pid of processesWithEnv('DEADMAN_TEST_TAG', p.env.DEADMAN_TEST_TAG!)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** A deadman whose codex agent hangs in a tool: incident 1 AWAITING_APPROVAL. */
function startHungRun(p: Place, name: string, extra: string[] = []) {
  const env = { ...p.env, FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: 'sleep 600' };
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--config',
      p.config,
      '--name',
      name,
      '--adapter',
      'codex',
      '--poll',
      '250ms',
      '--hung-timeout',
      '2s',
      '--kill-grace',
      '1s',
      '--stop-grace',
      '1s',
      '--inactivity',
      '1min',
      ...extra,
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests',
    ],
    { env, cwd: p.dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const awaiting = async () => {
    const found = await waitFor(
      () =>
        /incident (\d+) AWAITING_APPROVAL: .*or answer now: (deadman approve .*) \(kill it\) or (deadman deny .*)$/m.exec(
          stderr,
        ),
      20_000,
      `${name} AWAITING_APPROVAL`,
    );
    return { id: Number(found[1]), approve: found[2]!, deny: found[3]! };
  };
  return { child, exited, awaiting, log: () => stderr };
}

const deadman = (p: Place, args: string[]) => runDeadman([...args, '--config', p.config], { cwd: p.dir, env: p.env });
const incidentStates = (database: string) =>
  query<{ id: number; state: string }>(database, 'SELECT id, state FROM incidents ORDER BY id');
const lastTransition = (database: string, id: number) =>
  query<{ to_state: string; reason: string }>(
    database,
    'SELECT to_state, reason FROM incident_transitions WHERE incident_id = ? ORDER BY id DESC LIMIT 1',
    id,
  )[0];
const sample = (text: string, metric: string, name: string) =>
  parsePrometheus(text).samples.find((s) => s.name === metric && s.labels.name === name)?.value;

test('a deadman killed with SIGKILL: status, health, metrics and its textfile say so at once, its incident is ABANDONED, approve is refused', async (t) => {
  const p = place(t);
  const run = startHungRun(p, 'gone');
  const { id } = await run.awaiting();
  const textfile = join(p.collector, 'deadman-gone.prom');
  await waitFor(
    () => {
      try {
        return sample(readFileSync(textfile, 'utf8'), 'deadman_run_running', 'gone') === 1;
      } catch {
        return false;
      }
    },
    10_000,
    'the textfile saying running',
  );
  const waiting = await deadman(p, ['status', '--json']);
  assert.equal(waiting.code, 1, 'an incident waits for a person: exit 1');
  assert.equal((JSON.parse(waiting.stdout) as Array<{ state: string }>)[0]!.state, 'running');

  run.child.kill('SIGKILL');
  await run.exited;
  const killedAt = Date.now();
  const host = measureHostDelay();
  // Each reader's first answer after the kill: no refresh period to wait out.
  const health = await deadman(p, ['health', '--name', 'gone']);
  assert.equal(health.code, 1, health.stdout + health.stderr);
  assert.match(health.stdout, /^gone: unhealthy: deadman \(pid \d+\) is gone/);
  const metrics = await deadman(p, ['metrics']);
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.deepEqual(
    [sample(metrics.stdout, 'deadman_run_running', 'gone'), sample(metrics.stdout, 'deadman_run_healthy', 'gone')],
    [0, 0],
  );
  const prom = readFileSync(textfile, 'utf8');
  assert.deepEqual(
    [sample(prom, 'deadman_run_running', 'gone'), sample(prom, 'deadman_run_healthy', 'gone')],
    [0, 0],
    'the textfile was rewritten by the reader',
  );
  const status = await deadman(p, ['status', '--json']);
  assert.equal(status.code, 1, status.stderr);
  const [row] = JSON.parse(status.stdout) as Array<{
    state: string;
    reason: string;
    open_incident: unknown;
    needs_attention: boolean;
  }>;
  assert.equal(row!.state, 'killed');
  assert.match(
    row!.reason,
    /killed.*; pid \d+ of its session runs on unsupervised$/,
    'the agent it left is no live run',
  );
  assert.deepEqual([row!.open_incident, row!.needs_attention], [null, true]);
  assert.ok(Date.now() - killedAt < host.scaled(5_000), 'the readers answered without waiting');
  const text = await deadman(p, ['status']);
  assert.match(text.stdout, /^gone\s+killed\s/m);

  const database = join(p.state, 'deadman.db');
  assert.deepEqual(incidentStates(database), [{ id, state: 'ABANDONED' }]);
  assert.match(lastTransition(database, id)!.reason, /^deadman \(pid \d+\) of run #1 is gone without recording an end/);
  const [runRow] = query<{ ended_at: number | null; outcome: string; signal: string }>(
    database,
    'SELECT ended_at, outcome, signal FROM runs',
  );
  assert.deepEqual([runRow!.ended_at !== null, runRow!.outcome, runRow!.signal], [true, 'lost', 'unknown']);

  const approve = await deadman(p, ['approve', String(id)]);
  assert.equal(approve.code, 1);
  assert.match(
    approve.stderr,
    new RegExp(
      `^deadman: incident ${id} is ABANDONED, not AWAITING_APPROVAL; its run #1 \\(gone\\) lost its deadman \\(pid \\d+\\): there is nothing to approve\\n$`,
    ),
  );
});

test('two runs with their own databases in one state directory: each printed answer reaches its own run only', async (t) => {
  const p = place(t);
  const a = startHungRun(p, 'a', ['--database', join(p.state, 'a.db')]);
  const b = startHungRun(p, 'b', ['--database', join(p.state, 'b.db')]);
  const [hintA, hintB] = await Promise.all([a.awaiting(), b.awaiting()]);
  assert.deepEqual([hintA.id, hintB.id], [1, 1], 'both at incident 1: numbers are counted per database');
  assert.match(hintA.approve, /^deadman approve 1 --state-dir \S+ --database \S+a\.db$/);
  // The hint as printed, typed in a shell with none of the run's environment.
  const { DEADMAN_CONFIG: _config, ...shellEnv } = p.env;
  const answered = await runProgram(
    'sh',
    ['-c', hintA.approve.replace(/^deadman /, `"${process.execPath}" "${deadmanBin}" `)],
    { cwd: p.dir, env: { ...shellEnv, DEADMAN_CONFIG: '' } },
  );
  assert.equal(answered.code, 0, answered.stderr);
  assert.equal(await a.exited, 0, a.log());
  assert.deepEqual(
    incidentStates(join(p.state, 'a.db')).map((i) => i.state),
    ['RESOLVED'],
  );
  // b polls four times a second; give it two seconds to take what is not its own.
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    assert.deepEqual(
      incidentStates(join(p.state, 'b.db')).map((i) => i.state),
      ['AWAITING_APPROVAL'],
      "b took a's answer",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.doesNotMatch(b.log(), /approved by/);
  b.child.kill('SIGTERM');
  await b.exited;
});

test("an answer left for a run that died never approves the next run's incident of the same number, with the database moved aside", async (t) => {
  const p = place(t);
  const database = join(p.state, 'deadman.db');
  const first = startHungRun(p, 'same');
  const { id } = await first.awaiting();
  // Frozen, it cannot take the answer; it is alive, so the answer is accepted for it.
  first.child.kill('SIGSTOP');
  const answer = await deadman(p, ['approve', String(id)]);
  assert.equal(answer.code, 0, answer.stderr);
  first.child.kill('SIGKILL');
  await first.exited;
  killTagged(p);
  renameSync(database, `${database}.aside`);
  for (const suffix of ['-wal', '-shm']) {
    try {
      renameSync(database + suffix, `${database}.aside${suffix}`);
    } catch {
      // not there
    }
  }

  const second = startHungRun(p, 'same');
  const again = await second.awaiting();
  assert.equal(again.id, id, 'numbering restarted');
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    assert.deepEqual(
      incidentStates(database).map((i) => i.state),
      ['AWAITING_APPROVAL'],
      'the left-over answer approved the new incident',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  second.child.kill('SIGTERM');
  await second.exited;
});

test('a run stopped by --timeout leaves its incident ABANDONED with why, and approve refuses it', async (t) => {
  const p = place(t);
  const run = startHungRun(p, 'capped', ['--timeout', '5s']);
  const { id } = await run.awaiting();
  assert.equal(await run.exited, 124, run.log());
  const database = join(p.state, 'deadman.db');
  assert.deepEqual(query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents ORDER BY id'), [
    { kind: 'HUNG_PROCESS', state: 'ABANDONED' },
    { kind: 'TIMEOUT', state: 'ESCALATED' },
  ]);
  assert.equal(lastTransition(database, id)!.reason, 'the run ended (timeout) before this incident was settled');
  const approve = await deadman(p, ['approve', String(id)]);
  assert.equal(approve.code, 1);
  assert.match(
    approve.stderr,
    new RegExp(`^deadman: incident ${id} is ABANDONED, not AWAITING_APPROVAL: there is nothing to approve\\n$`),
  );
  const status = await deadman(p, ['status', '--json']);
  assert.deepEqual(
    (JSON.parse(status.stdout) as Array<{ state: string }>).map((row) => row.state),
    ['timeout'],
  );
  assert.equal(status.code, 1, 'a timed-out run needs a look');
});

test(
  'a reader that does not own the database says the same of a dead deadman, and writes nothing',
  { skip: process.getuid?.() !== 0 && 'needs root to hand the database to another user' },
  async (t) => {
    const p = place(t);
    const run = startHungRun(p, 'theirs');
    const { id } = await run.awaiting();
    run.child.kill('SIGKILL');
    await run.exited;
    const database = join(p.state, 'deadman.db');
    // Another user's database: root reads it, and must not leave files of its own beside it.
    const handTo = (uid: number) => {
      for (const path of [database, `${database}-wal`, `${database}-shm`]) {
        try {
          chownSync(path, uid, uid);
        } catch {
          // no WAL left
        }
      }
    };
    handTo(65534);
    const status = await deadman(p, ['status', '--json']);
    assert.equal(status.code, 1, status.stderr);
    const [row] = JSON.parse(status.stdout) as Array<{ state: string; open_incident: unknown }>;
    assert.deepEqual([row!.state, row!.open_incident], ['killed', null]);
    const listed = await deadman(p, ['incidents', '--json']);
    assert.deepEqual(
      (JSON.parse(listed.stdout) as Array<{ id: number; state: string }>).map((i) => [i.id, i.state]),
      [[id, 'ABANDONED']],
    );
    const report = await deadman(p, ['report', String(id), '--json']);
    assert.equal((JSON.parse(report.stdout) as { state: string }).state, 'ABANDONED');
    handTo(0); // the test's own reads write no database another user owns (its -wal included)
    assert.deepEqual(incidentStates(database), [{ id, state: 'AWAITING_APPROVAL' }], 'nothing was written');
    assert.equal(query<{ ended_at: number | null }>(database, 'SELECT ended_at FROM runs')[0]!.ended_at, null);
  },
);
