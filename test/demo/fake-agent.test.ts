import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapter } from '../../lib/core/adapters/index.ts';
import { readClaudeTranscript, readCodexRollout } from '../../lib/core/revive/session-files.ts';
import { readProcStat } from '../../lib/io/process/process-identity.ts';
import { tempDir, waitFor } from '../helpers/cli.ts';
import { argvLog, processesWithEnv, startFakeAgent } from '../helpers/fake-agent.ts';

const ID = '01a230e4-0000-7000-8000-00000000abcd';

async function eventTypes(name: 'codex' | 'claude', lines: string[]): Promise<string[]> {
  const adapter = await createAdapter(name);
  return lines.flatMap((line) => {
    const parsed = adapter.parseLine(line);
    assert.ok(parsed.recognized, `${name} does not recognize: ${line}`);
    return parsed.events.map((e) =>
      e.type === 'tool_finished'
        ? `tool_finished ${e.exitCode}`
        : e.type === 'session'
          ? `session ${e.sessionId}`
          : e.type,
    );
  });
}

function rolloutLines(dir: string): string[] {
  const files = readdirSync(dir).filter((f) => f.startsWith('rollout-'));
  assert.equal(files.length, 1, files.join());
  return readFileSync(join(dir, files[0]!), 'utf8').split('\n').filter(Boolean);
}

test('codex mode: a complete turn in the real format, argv logged, rollout written; resume keeps the id and the file', async (t) => {
  const dir = tempDir(t);
  const env = { FAKE_AGENT_ARGV_LOG: join(dir, 'argv.log'), FAKE_AGENT_SESSION_ID: ID, FAKE_AGENT_SESSION_DIR: dir };
  const first = startFakeAgent(t, ['codex', 'exec', '--json', '-s', 'workspace-write', 'build it'], env);
  assert.deepEqual(await first.exited, { code: 0, signal: null });
  assert.deepEqual(await eventTypes('codex', first.lines), [
    `session ${ID}`,
    'turn_started',
    'tool_started',
    'tool_finished 0',
    'turn_completed',
    'usage',
  ]);
  const resumed = startFakeAgent(t, ['codex', 'exec', '--json', '-s', 'workspace-write', 'resume', ID, 'go on'], {
    ...env,
    FAKE_AGENT_SESSION_ID: '',
  });
  assert.deepEqual(await resumed.exited, { code: 0, signal: null });
  assert.equal((await eventTypes('codex', resumed.lines))[0], `session ${ID}`);
  assert.deepEqual(argvLog(env.FAKE_AGENT_ARGV_LOG), [
    ['codex', 'exec', '--json', '-s', 'workspace-write', 'build it'],
    ['codex', 'exec', '--json', '-s', 'workspace-write', 'resume', ID, 'go on'],
  ]);
  const lines = rolloutLines(dir);
  assert.equal(lines.filter((l) => l.includes('"session_meta"')).length, 1, 'a resume appends to the same rollout');
  const finding = readCodexRollout(lines)!;
  assert.deepEqual(
    [finding.sessionId, finding.interruption, finding.task, finding.resumeFlags[1]],
    [ID, null, 'build it', 'workspace-write'],
  );
});

test('claude mode: a complete turn; stream-json without --verbose is refused like the real one', async (t) => {
  const dir = tempDir(t);
  const run = startFakeAgent(t, ['claude', '-p', 'build it', '--output-format', 'stream-json', '--verbose'], {
    FAKE_AGENT_SESSION_ID: ID,
    FAKE_AGENT_SESSION_DIR: dir,
  });
  assert.deepEqual(await run.exited, { code: 0, signal: null });
  assert.deepEqual(await eventTypes('claude', run.lines), [
    `session ${ID}`,
    'turn_started',
    'tool_started',
    'tool_finished 0',
    'turn_completed',
    'usage',
  ]);
  const transcript = readClaudeTranscript(
    readFileSync(join(dir, `${ID}.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean),
  )!;
  assert.deepEqual([transcript.interruption, transcript.task, transcript.root], [null, 'build it', true]);
  const refused = startFakeAgent(t, ['claude', '-p', 'x', '--output-format', 'stream-json'], {});
  assert.equal((await refused.exited).code, 1);
  assert.equal(refused.stderr(), 'Error: When using --print, --output-format=stream-json requires --verbose\n');
});

test('hang-tool: the tool hangs in its own session; killing it lets the turn complete', async (t) => {
  const run = startFakeAgent(t, ['codex', 'exec', '--json', 'hang'], {
    FAKE_AGENT_SCENARIO: 'hang-tool',
    FAKE_AGENT_SESSION_ID: ID + '1',
  });
  // bash -c execs the command; until it has, the tool's process is still named bash.
  const tool = await waitFor(
    () => processesWithEnv('CODEX_THREAD_ID', ID + '1').find((pid) => readProcStat(pid)?.comm === 'sleep'),
    5000,
    'the tool process to be sleep',
  );
  assert.equal(readProcStat(tool)!.sid, tool, "the tool leads its own session, like the real agents' tools");
  await waitFor(() => run.lines.length >= 3, 5000, "the tool's started event");
  assert.equal(run.lines.length, 3, 'silent while the tool runs');
  process.kill(tool, 'SIGKILL');
  assert.deepEqual(await run.exited, { code: 0, signal: null });
  assert.deepEqual((await eventTypes('codex', run.lines)).slice(2), [
    'tool_started',
    'tool_finished 137',
    'turn_completed',
    'usage',
  ]);
});

test('silent: the opening lines, then nothing and no CPU until killed', async (t) => {
  const run = startFakeAgent(t, ['claude', '-p', 'x', '--output-format', 'stream-json', '--verbose'], {
    FAKE_AGENT_SCENARIO: 'silent',
  });
  await waitFor(() => run.lines.length >= 1, 5000, 'the init line');
  const before = readProcStat(run.child.pid!)!.cpuTicks;
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(run.lines.length, 1);
  assert.ok(readProcStat(run.child.pid!)!.cpuTicks - before <= 2, 'burns no CPU');
  run.child.kill('SIGTERM');
  assert.deepEqual(await run.exited, { code: null, signal: 'SIGTERM' });
});

test('crash: starts a tool, then dies of SIGKILL; the rollout shows the open turn', async (t) => {
  const dir = tempDir(t);
  const run = startFakeAgent(t, ['codex', 'exec', '--json', 'crash'], {
    FAKE_AGENT_SCENARIO: 'crash',
    FAKE_AGENT_SESSION_ID: ID + '2',
    FAKE_AGENT_SESSION_DIR: dir,
  });
  assert.deepEqual(await run.exited, { code: null, signal: 'SIGKILL' });
  assert.deepEqual(await eventTypes('codex', run.lines), [`session ${ID}2`, 'turn_started', 'tool_started']);
  assert.match(readCodexRollout(rolloutLines(dir))!.interruption!, /never completed/);
  assert.equal(
    processesWithEnv('CODEX_THREAD_ID', ID + '2').length,
    1,
    'the orphaned tool outlives the agent, as with a real crash',
  );
});

test('SIGINT aborts the turn like the real agents: exit 1, turn_aborted / interrupted line', async (t) => {
  const dir = tempDir(t);
  for (const mode of ['codex', 'claude'] as const) {
    const id = `${ID}${mode}`;
    const args =
      mode === 'codex'
        ? ['codex', 'exec', '--json', 'x']
        : ['claude', '-p', 'x', '--output-format', 'stream-json', '--verbose'];
    const run = startFakeAgent(t, args, {
      FAKE_AGENT_SCENARIO: 'hang-tool',
      FAKE_AGENT_SESSION_ID: id,
      FAKE_AGENT_SESSION_DIR: dir,
    });
    await waitFor(
      () => processesWithEnv(mode === 'codex' ? 'CODEX_THREAD_ID' : 'CLAUDE_CODE_SESSION_ID', id).length === 1,
      5000,
      'the tool',
    );
    run.child.kill('SIGINT');
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    await waitFor(
      () => processesWithEnv(mode === 'codex' ? 'CODEX_THREAD_ID' : 'CLAUDE_CODE_SESSION_ID', id).length === 0,
      5000,
      'the tool to be killed',
    );
  }
  assert.match(readCodexRollout(rolloutLines(dir))!.stoppedByPerson!, /aborted/);
  const transcript = readFileSync(join(dir, `${ID}claude.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean);
  assert.match(readClaudeTranscript(transcript)!.stoppedByPerson!, /Request interrupted by user/);
});
