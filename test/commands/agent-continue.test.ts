import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runProgram, tempDir, waitFor, type Finished } from '../helpers/cli.ts';
import { CONTINUE_PROMPT } from '../../lib/commands/agent/agent-continue.ts';
import { wholeJsonLines } from '../helpers/json-lines.ts';

/**
 * `deadman agent` beside Claude Code's auto-continue, under a real pseudo-terminal (an outer
 * util-linux `script`, as a person's terminal), with a fake interactive Claude whose transcript
 * records a usage limit resetting 1 s later: when it continues by itself at the reset (a new
 * turn in its transcript) deadman sends nothing; when it stays silent past the reset plus
 * `usage_limit.continue_grace` (1 s here), deadman resumes the session in the terminal with a
 * prompt to continue — once.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'resumable-agent.js');
const ID = '01a23013-cccc-7e73-a729-000000000002';
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

interface AgentLine {
  pid: number;
  args: string[];
}

function setup(t: { after(fn: () => void): void }, env: Record<string, string>) {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const state = join(dir, 'state');
  const agentLog = join(dir, 'agent.jsonl');
  writeFileSync(agentLog, '');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[usage_limit]\ncontinue_grace = "1s"\n');
  const fullEnv = {
    ...process.env,
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    STATE_DIRECTORY: state,
    MARKER_DIR: join(state, 'markers'),
    AGENT_LOG: agentLog,
    DEADMAN_CONFIG: config,
    HOME: dir,
    NOTIFY_SOCKET: '',
    SHELL: '/bin/sh',
    AGENT_LIMIT_RESET_S: '1',
    ...env,
  };
  const agentLines = () => wholeJsonLines<AgentLine>(agentLog);
  const start = (): Promise<Finished> => {
    const inner = [
      process.execPath,
      deadmanBin,
      'agent',
      '--poll',
      '250ms',
      '--',
      process.execPath,
      agentScript,
      'claude',
    ];
    return runProgram('script', ['-q', '-e', '-c', `exec ${inner.map(quote).join(' ')}`, '/dev/null'], {
      cwd: repo,
      env: fullEnv,
    });
  };
  const agent = (n: number) => waitFor(() => agentLines()[n - 1], 15_000, `agent process ${n}`);
  const marker = () => {
    const dir = join(state, 'markers');
    const [file] = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
    return file === undefined
      ? null
      : (JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
          state: string;
          reviveCount: number;
          sessionId: string | null;
        });
  };
  return { start, agent, agentLines, marker };
}

test('deadman agent: the agent continues by itself at the reset → no second prompt, no restart', async (t) => {
  const s = setup(t, { AGENT_AUTO_CONTINUE: '1' });
  const finished = s.start();
  const first = await s.agent(1);
  // The reset (≤ 2 s) plus the grace (1 s) plus polls: well past the point where deadman would have acted.
  const quietUntil = Date.now() + 6_000;
  await waitFor(() => Date.now() >= quietUntil || s.agentLines().length > 1 || undefined, 10_000, 'the grace to pass');
  assert.equal(s.agentLines().length, 1, 'deadman did not restart the agent to prompt it');
  process.kill(first.pid, 'SIGUSR1');
  const ended = await finished;
  assert.equal(ended.code, 0, ended.stdout);
  assert.match(ended.stdout, /claude continued by itself after its usage limit: no prompt sent/);
  assert.doesNotMatch(ended.stdout, /resuming the session with a prompt/);
});

test('deadman agent: the agent stays silent past the reset and the grace → the session resumed in the terminal with one prompt to continue', async (t) => {
  const s = setup(t, {});
  const finished = s.start();
  const first = await s.agent(1);
  assert.deepEqual(first.args, []);
  const second = await s.agent(2);
  assert.deepEqual(second.args, ['--resume', ID, CONTINUE_PROMPT], 'the same session, with the prompt');
  await waitFor(
    () => (s.marker()?.state === 'running' && s.marker()!.reviveCount === 1) || undefined,
    5_000,
    'the marker taken by the resume',
  );
  process.kill(second.pid, 'SIGUSR1');
  const ended = await finished;
  assert.equal(ended.code, 0, ended.stdout);
  assert.match(
    ended.stdout,
    /claude did not continue within usage_limit\.continue_grace after its usage limit reset: resuming the session with a prompt to continue/,
  );
  assert.equal(s.agentLines().length, 2, 'prompted once');
  assert.equal(s.marker()!.state, 'completed');
});
