import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runProgram, tempDir, waitFor, type Finished } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { wholeJsonLines } from '../helpers/json-lines.ts';

/**
 * `deadman agent`'s revive markers under a real pseudo-terminal (an outer util-linux `script`,
 * as a person's terminal), with a fake interactive Codex and Claude Code writing their session files: the
 * marker is written before the agent starts, takes the session id from the session file, is
 * left interrupted when the agent is killed, and the same command resumes the session as the
 * TUI; forged and foreign markers are refused as `deadman run` refuses them.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'resumable-agent.js');
const ID = '01a23013-cccc-7e73-a729-000000000002';
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

interface AgentLine {
  pid: number;
  args: string[];
  runTag: string | null;
  tty: boolean;
  markerBefore: boolean;
}

function setup(t: { after(fn: () => void): void }, stateName = 'state', kind: 'codex' | 'claude' = 'codex') {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const state = join(dir, stateName);
  const markers = join(state, 'markers');
  const agentLog = join(dir, 'agent.jsonl');
  writeFileSync(agentLog, '');
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    STATE_DIRECTORY: state,
    MARKER_DIR: markers,
    AGENT_LOG: agentLog,
    DEADMAN_CONFIG: '',
    HOME: dir,
    NOTIFY_SOCKET: '',
    SHELL: '/bin/sh',
  };
  const agentLines = () => wholeJsonLines<AgentLine>(agentLog);
  /** `deadman agent -- node resumable-agent.js <kind>` in a terminal; resolves when deadman exits. */
  const start = (): Promise<Finished> => {
    const inner = [process.execPath, deadmanBin, 'agent', '--poll', '250ms', '--', process.execPath, agentScript, kind];
    return runProgram('script', ['-q', '-e', '-c', `exec ${inner.map(quote).join(' ')}`, '/dev/null'], {
      cwd: repo,
      env,
    });
  };
  /** The n-th agent process (1-based), once it logged. */
  const agent = (n: number) => waitFor(() => agentLines()[n - 1], 10_000, `agent process ${n}`);
  const markerFile = () => {
    const [file] = existsSync(markers) ? readdirSync(markers).filter((name) => name.endsWith('.json')) : [];
    return file === undefined ? null : join(markers, file);
  };
  const marker = () => {
    const file = markerFile();
    return file === null
      ? null
      : (JSON.parse(readFileSync(file, 'utf8')) as {
          state: string;
          sessionId: string | null;
          runTag: string;
          reviveCount: number;
          reason: string | null;
        });
  };
  return { dir, repo, state, markers, env, start, agent, marker, markerFile, database: join(state, 'deadman.db') };
}

/** Runs the agent once, waits for the marker to name its session, and kills the agent (SIGKILL): an interrupted session. */
async function interruptedSession(s: ReturnType<typeof setup>): Promise<Finished> {
  const finished = s.start();
  const first = await s.agent(1);
  await waitFor(() => s.marker()?.sessionId === ID, 10_000, 'the marker to take the session id from the session file');
  process.kill(first.pid, 'SIGKILL');
  return finished;
}

for (const [kind, resume] of [
  ['codex', ['resume', ID]],
  ['claude', ['--resume', ID]],
] as const) {
  test(`deadman agent (${kind}): a marker before the agent starts, the session id from its session file, interrupted on a kill, then resumed as the TUI`, async (t) => {
    const s = setup(t, 'state', kind);
    const killed = interruptedSession(s);
    const first = await s.agent(1);
    assert.deepEqual(
      { args: first.args, tty: first.tty, markerBefore: first.markerBefore },
      { args: [], tty: true, markerBefore: true },
    );
    assert.equal(first.runTag, s.marker()!.runTag, "the agent carries the marker's run tag (one agent per session)");
    const ended = await killed;
    assert.equal(ended.code, 137, ended.stdout);
    assert.deepEqual([s.marker()!.state, s.marker()!.reason], ['interrupted', 'failed: the agent exited 137']);

    // deadman revive is a headless hook: it leaves an interactive session to its terminal.
    const revive = await runProgram(process.execPath, [deadmanBin, 'revive', '--dry-run'], { cwd: s.repo, env: s.env });
    assert.equal(revive.code, 0, revive.stderr);
    assert.match(
      revive.stdout,
      new RegExp(
        `an interactive session: resumed only in a terminal, by its command under deadman agent \\(deadman agent -- .*resumable-agent\\.js ${kind}\\)`,
      ),
    );

    const resumed = s.start();
    const second = await s.agent(2);
    assert.deepEqual(second.args, resume, 'the same command resumes the session in the terminal');
    assert.equal(second.tty, true);
    await waitFor(
      () => s.marker()?.state === 'running' && s.marker()!.reviveCount === 1,
      5_000,
      'the marker taken by the resume',
    );
    process.kill(second.pid, 'SIGUSR1');
    const quit = await resumed;
    assert.equal(quit.code, 0, quit.stdout);
    assert.deepEqual(
      [s.marker()!.state, s.marker()!.reviveCount],
      ['completed', 0],
      'the person quit: nothing to revive',
    );
    const revives = query<{ session_id: string; source: string; outcome: string }>(
      s.database,
      'SELECT session_id, source, outcome FROM revives',
    );
    assert.deepEqual(
      revives.map((r) => ({ ...r })),
      [{ session_id: ID, source: 'inline', outcome: 'started' }],
    );
  });
}

const TAMPERING: Record<string, (s: ReturnType<typeof setup>, t: { after(fn: () => void): void }) => Promise<void>> = {
  forged: async (s) => {
    const file = s.markerFile()!;
    const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    value.argv = ['/bin/sh', '-c', `touch ${join(s.dir, 'PWNED')}`];
    writeFileSync(file, JSON.stringify(value));
  },
  'foreign (signed by another state directory)': async (s, t) => {
    const other = setup(t, 'other-state');
    await interruptedSession(other);
    copyFileSync(other.markerFile()!, s.markerFile()!);
  },
};

for (const [kind, tamper] of Object.entries(TAMPERING)) {
  test(`deadman agent: a ${kind} marker is refused as deadman run refuses it — set aside, recorded, a fresh session started`, async (t) => {
    const s = setup(t);
    await interruptedSession(s);
    await tamper(s, t);
    const fresh = s.start();
    const second = await s.agent(2);
    assert.deepEqual(second.args, [], 'nothing from the marker was run');
    process.kill(second.pid, 'SIGUSR1');
    const ended = await fresh;
    assert.equal(ended.code, 0, ended.stdout);
    assert.match(ended.stdout, /refus/i);
    assert.ok(!existsSync(join(s.dir, 'PWNED')));
    const incidents = query<{ kind: string; state: string }>(s.database, 'SELECT kind, state FROM incidents');
    assert.deepEqual(
      incidents.map((i) => `${i.kind} ${i.state}`),
      ['REVIVE_REFUSED ESCALATED'],
    );
  });
}

test('deadman agent: a second one on a session that has a live agent refuses to start beside it (75), as deadman run does', async (t) => {
  const s = setup(t);
  const running = s.start();
  const first = await s.agent(1);
  await waitFor(() => s.marker()?.sessionId === ID, 10_000, 'the marker to take the session id');
  const second = await s.start();
  assert.equal(second.code, 75, second.stdout);
  assert.match(second.stdout, /its session still has a live process \(pid \d+\); not starting a second supervisor/);
  process.kill(first.pid, 'SIGUSR1');
  assert.equal((await running).code, 0);
  assert.equal(
    readFileSync(join(s.dir, 'agent.jsonl'), 'utf8').trim().split('\n').length,
    1,
    'no second agent was started',
  );
});
