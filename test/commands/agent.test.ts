import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runProgram, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * `deadman agent` under a real pseudo-terminal (an outer util-linux `script`, as a person's
 * terminal): the agent gets a tty it can put in raw mode with the terminal's size, its hung
 * tool subtree is killed, and its exit code is deadman's.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'interactive-agent.js');
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

test('deadman agent: a tty in raw mode with the terminal\'s size, the hung tool killed, the exit code passed through', async (t) => {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const signalLog = join(dir, 'signals.log');
  writeFileSync(signalLog, '');
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, CODEX_HOME: join(dir, 'codex'), SIGNAL_LOG: signalLog, INTERACTIVE_AGENT_EXIT: '7', DEADMAN_CONFIG: '', HOME: dir, NOTIFY_SOCKET: '', SHELL: '/bin/sh' };
  const inner = [process.execPath, deadmanBin, 'agent', '--auto-recover', '--hung-timeout', '2s', '--kill-grace', '1s', '--poll', '250ms', '--database', database,
    '--', process.execPath, agentScript, 'codex'];
  const terminal = await runProgram('script', ['-q', '-e', '-c', `stty cols 123 rows 40; exec ${inner.map(quote).join(' ')}`, '/dev/null'], { cwd: repo, env });

  assert.equal(terminal.code, 7, terminal.stdout);
  assert.match(terminal.stdout, /tty yes raw yes cols 123/);
  assert.match(terminal.stdout, /turn done/);
  assert.match(terminal.stdout, /the agent exited after .*: HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED; killed \[\d+ \d+\]/);
  const incidents = query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents');
  assert.deepEqual(incidents.map((i) => `${i.kind} ${i.state}`), ['HUNG_PROCESS RESOLVED']);
  assert.equal(readFileSync(signalLog, 'utf8'), 'tool SIGTERM\n', 'only the tool was signalled');
});

test('deadman agent refuses anything but Codex or Claude Code in one line (exit 64)', async () => {
  const finished = await runProgram(process.execPath, [deadmanBin, 'agent', '--', 'vim']);
  assert.equal(finished.code, 64);
  assert.equal(finished.stderr, 'deadman: deadman agent runs Codex or Claude Code: put the agent after -- (deadman agent -- codex), got "vim"\n');
});
