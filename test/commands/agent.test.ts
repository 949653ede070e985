import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * `deadman agent` under a real pseudo-terminal (an outer util-linux `script`, as a person's
 * terminal): the agent gets a tty it can put in raw mode with the terminal's size, its hung
 * tool subtree is killed, and its exit code is deadman's.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'interactive-agent.js');
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

test("deadman agent: a tty in raw mode with the terminal's size, the hung tool killed, the exit code passed through", async (t) => {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const signalLog = join(dir, 'signals.log');
  writeFileSync(signalLog, '');
  const database = join(dir, 'deadman.db');
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    SIGNAL_LOG: signalLog,
    INTERACTIVE_AGENT_EXIT: '7',
    DEADMAN_CONFIG: '',
    HOME: dir,
    NOTIFY_SOCKET: '',
    SHELL: '/bin/sh',
  };
  const inner = [
    process.execPath,
    deadmanBin,
    'agent',
    '--auto-recover',
    '--hung-timeout',
    '2s',
    '--kill-grace',
    '1s',
    '--poll',
    '250ms',
    '--database',
    database,
    '--',
    process.execPath,
    agentScript,
    'codex',
  ];
  const terminal = await runProgram(
    'script',
    ['-q', '-e', '-c', `stty cols 123 rows 40; exec ${inner.map(quote).join(' ')}`, '/dev/null'],
    { cwd: repo, env },
  );

  assert.equal(terminal.code, 7, terminal.stdout);
  assert.match(terminal.stdout, /tty yes raw yes cols 123/);
  assert.match(terminal.stdout, /turn done/);
  assert.match(
    terminal.stdout,
    /the agent exited after .*: HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED; killed \[\d+ \d+\]/,
  );
  const incidents = query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents');
  assert.deepEqual(
    incidents.map((i) => `${i.kind} ${i.state}`),
    ['HUNG_PROCESS RESOLVED'],
  );
  assert.equal(readFileSync(signalLog, 'utf8'), 'tool SIGTERM\n', 'only the tool was signalled');
});

test('deadman agent refuses anything but Codex or Claude Code (64) and an agent that is not installed (127), each in one line', async () => {
  const finished = await runProgram(process.execPath, [deadmanBin, 'agent', '--', 'vim']);
  assert.equal(finished.code, 64);
  assert.equal(
    finished.stderr,
    'deadman: deadman agent runs Codex or Claude Code: put the agent after -- (deadman agent -- codex), got "vim"\n',
  );
  const missing = await runProgram(process.execPath, [deadmanBin, 'agent', '--', 'codex', '--yolo'], {
    env: { ...process.env, PATH: '/nonexistent' },
  });
  assert.equal(missing.code, 127);
  assert.equal(missing.stderr, 'deadman: codex: command not found\n');
});

test("deadman agent in a tmux window: a window-size change reaches the agent, and its exit code is deadman's", async (t) => {
  // Removed after the tmux server is gone (its socket is inside).
  const dir = tempDir();
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const ttyLog = join(dir, 'tty.log');
  const rcFile = join(dir, 'rc');
  const socket = join(dir, 'tmux.sock');
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    SIGNAL_LOG: join(dir, 'signals.log'),
    TTY_LOG: ttyLog,
    INTERACTIVE_AGENT_EXIT: '7',
    DEADMAN_CONFIG: '',
    HOME: dir,
    SHELL: '/bin/sh',
    NOTIFY_SOCKET: '',
  };
  const inner = [
    process.execPath,
    deadmanBin,
    'agent',
    '--auto-recover',
    '--hung-timeout',
    '2s',
    '--kill-grace',
    '1s',
    '--poll',
    '250ms',
    '--database',
    join(dir, 'deadman.db'),
    '--',
    process.execPath,
    agentScript,
    'codex',
  ];
  const tmux = (...args: string[]) => runProgram('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env, cwd: '/' });
  t.after(async () => {
    await tmux('kill-server');
    rmSync(dir, { recursive: true, force: true });
  });
  const started = await tmux(
    'new-session',
    '-d',
    '-x',
    '100',
    '-y',
    '30',
    '-s',
    'agent',
    '-c',
    repo,
    `${inner.map(quote).join(' ')}; echo $? > ${quote(rcFile)}; sleep 60`,
  );
  assert.equal(started.code, 0, started.stderr);
  await waitFor(
    () => existsSync(ttyLog) && readFileSync(ttyLog, 'utf8').includes('cols 100'),
    10_000,
    'the agent to report its width',
  );
  const resized = await tmux('resize-window', '-t', 'agent', '-x', '140', '-y', '30');
  assert.equal(resized.code, 0, resized.stderr);
  await waitFor(
    () => readFileSync(ttyLog, 'utf8').includes('cols 140'),
    10_000,
    `the resize to reach the agent (${readFileSync(ttyLog, 'utf8')})`,
  );
  // The hung tool is killed, the agent ends its turn and exits 7: deadman's exit code.
  assert.equal(
    await waitFor(() => existsSync(rcFile) && readFileSync(rcFile, 'utf8').trim(), 20_000, 'deadman to exit'),
    '7',
  );
});
