import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { startHostNoise } from '../helpers/liveness-cases.ts';

/**
 * `deadman attach` beside a fake interactive agent that deadman did not start (its own session
 * and process group): the hung tool subtree is killed, the agent and its older helper are not,
 * and every signal any of them got is in their log.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'interactive-agent.js');

function startAgent(t: { after(fn: () => void): void }, dir: string) {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const signalLog = join(dir, 'signals.log');
  writeFileSync(signalLog, '');
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    SIGNAL_LOG: signalLog,
    DEADMAN_CONFIG: '',
    HOME: dir,
    NOTIFY_SOCKET: '',
  };
  const agent = spawn(process.execPath, [agentScript, 'codex'], {
    cwd: repo,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let said = '';
  agent.stdout.setEncoding('utf8').on('data', (d: string) => (said += d));
  t.after(() => {
    for (const pid of [...said.matchAll(/^(?:helper|tool) (\d+)$/gm)].map((m) => Number(m[1]))) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    agent.kill('SIGKILL');
  });
  return { repo, env, agent, signalLog, said: () => said };
}

test('attach --auto-recover kills only the hung tool subtree; the agent carries on, the incident is RESOLVED', async (t) => {
  const dir = tempDir(t);
  t.after(startHostNoise());
  const { repo, env, agent, signalLog, said } = startAgent(t, dir);
  const toolPid = Number((await waitFor(() => /^tool (\d+)$/m.exec(said()), 10_000, 'the tool call'))[1]);
  const helperPid = Number(/^helper (\d+)$/m.exec(said())![1]);
  const database = join(dir, 'deadman.db');

  const once = await runDeadman(['attach', '--once', '--database', database], { cwd: repo, env });
  assert.equal(once.code, 0, once.stderr);
  assert.match(once.stderr, new RegExp(`codex pid ${agent.pid} in .*/repo`));
  assert.match(
    once.stderr,
    /monitoring 4 owned descendant\(s\) of pid \d+, baseline 2/,
    'helper sh + sleep are baseline; the tool sh + sleep are not',
  );

  const attach = spawn(
    process.execPath,
    [
      deadmanBin,
      'attach',
      '--auto-recover',
      '--hung-timeout',
      '2s',
      '--kill-grace',
      '1s',
      '--poll',
      '250ms',
      '--database',
      database,
    ],
    { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  attach.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => attach.on('exit', (code) => resolve(code)));
  t.after(() => attach.kill('SIGKILL'));
  await waitFor(() => /RESOLVED/.test(stderr), 15_000, `the incident to resolve (stderr: ${stderr})`);
  await waitFor(() => said().includes('turn done'), 5_000, 'the agent to finish its turn');
  attach.kill('SIGINT');
  assert.equal(await exited, 0, stderr);

  assert.match(stderr, /stopped after .*: HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED; killed \[\d+ \d+\]/);
  // The summary block attach ends with, as run's does.
  assert.match(
    stderr,
    /deadman: summary of run attach-codex-\d+\ndeadman: {3}status {8}attached: [^\n]*\ndeadman: {3}return code {3}0\n[\s\S]*deadman: {3}action {8}TERMINATE_DESCENDANT_PROCESS\n[\s\S]*deadman: {3}verification {2}RESOLVED: /,
  );
  const [incident] = query<{ kind: string; state: string; id: number }>(
    database,
    'SELECT id, kind, state FROM incidents',
  );
  assert.deepEqual({ kind: incident?.kind, state: incident?.state }, { kind: 'HUNG_PROCESS', state: 'RESOLVED' });
  const [action] = query<{ target: { pid: number }; detail: { killed: number[] } }>(
    database,
    'SELECT target, detail FROM actions WHERE incident_id = ?',
    incident!.id,
  );
  assert.equal(action!.target.pid, toolPid, 'the target is the tool command');
  assert.equal(action!.detail.killed.length, 2);
  assert.ok(action!.detail.killed.includes(toolPid));
  assert.ok(!action!.detail.killed.includes(helperPid) && !action!.detail.killed.includes(agent.pid!));

  assert.equal(
    readFileSync(signalLog, 'utf8'),
    'tool SIGTERM\n',
    'the tool got SIGTERM; the agent and the older helper got nothing',
  );
  assert.equal(agent.exitCode, null, 'the agent is still open');
  process.kill(helperPid, 0); // the helper is alive
});

test('attach without an agent in the repository, or with the pid of something else, exits 64 with one line', async (t) => {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const env = { ...process.env, DEADMAN_CONFIG: '', HOME: dir };
  const none = await runDeadman(['attach', '--once', '--database', join(dir, 'd.db')], { cwd: repo, env });
  assert.equal(none.code, 64);
  assert.match(none.stderr, /^deadman: no Codex or Claude Code process works in .*\/repo: start one, or give --pid\n$/);
  const other = await runDeadman(['attach', '--once', '--pid', String(process.pid), '--database', join(dir, 'd.db')], {
    cwd: repo,
    env,
  });
  assert.equal(other.code, 64);
  assert.match(other.stderr, /^deadman: pid \d+ is not a Codex or Claude Code process: give the agent's pid\n$/);
});

test('attach with two agents in the repository lists both and exits 64', async (t) => {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git', 'sub'), { recursive: true });
  // Two processes whose command line is an agent's (argv[0] "codex"), one in a subdirectory; one elsewhere.
  const agents = [repo, join(repo, '.git', 'sub'), dir].map((cwd) =>
    spawn('bash', ['-c', 'exec -a codex sleep 600'], { cwd, stdio: 'ignore' }),
  );
  t.after(() => agents.forEach((a) => a.kill('SIGKILL')));
  await waitFor(
    () => agents.every((a) => readFileSync(`/proc/${a.pid}/cmdline`, 'utf8').startsWith('codex\0')),
    5000,
    'the agents to exec',
  );
  const env = { ...process.env, DEADMAN_CONFIG: '', HOME: dir };
  const finished = await runDeadman(['attach', '--once', '--database', join(dir, 'd.db')], { cwd: repo, env });
  assert.equal(finished.code, 64);
  assert.match(finished.stderr, /^deadman: 2 agents work in .*\/repo; pick one with --pid:\n/);
  assert.match(finished.stderr, new RegExp(`pid ${agents[0]!.pid}  codex`));
  assert.match(finished.stderr, new RegExp(`pid ${agents[1]!.pid}  codex`));
  assert.doesNotMatch(finished.stderr, new RegExp(`pid ${agents[2]!.pid} `));
  assert.ok(
    agents.every((a) => a.exitCode === null && a.signalCode === null),
    'none of them was signalled',
  );
});
