import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { claudeLines, rolloutLines, transcriptLine } from '../../lib/demo/fake-agent-lines.ts';
import { runDeadman, tempDir, waitFor } from '../helpers/cli.ts';

/**
 * `deadman watch` on hand-made session files: a completed and an interrupted Codex rollout and
 * a running Claude transcript (held open by a live process that logs every signal it gets),
 * in a repository beside a sibling whose name shares its prefix.
 */

const MIN = 60_000;
const ids = {
  completed: '01a23013-aaaa-7e73-a729-000000000001',
  interrupted: '01a23013-aaaa-7e73-a729-000000000002',
  running: '5e55a0e1-aaaa-4550-ad20-000000000003',
  sibling: '01a23013-aaaa-7e73-a729-000000000004',
};

function writeSession(path: string, lines: object[], writtenAt: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  utimesSync(path, new Date(writtenAt), new Date(writtenAt));
}

function layOut(dir: string, now: number) {
  const repo = join(dir, 'repo');
  const sibling = join(dir, 'repo2');
  for (const r of [repo, sibling]) mkdirSync(join(r, '.git'), { recursive: true });
  const codexDir = join(dir, 'codex', 'sessions', '2026', '12', '02');
  const rollout = (id: string, cwd: string, closed: boolean, at: number) =>
    writeSession(
      join(codexDir, `rollout-2026-12-02T00-00-00-${id}.jsonl`),
      [
        rolloutLines.sessionMeta(at - 5000, id, cwd),
        rolloutLines.taskStarted(at - 4000, 't1'),
        rolloutLines.userMessage(at - 3000, 't1', 'fix the tests'),
        ...(closed ? [rolloutLines.taskComplete(at, 't1', 'done')] : []),
      ],
      at,
    );
  rollout(ids.completed, repo, true, now - 20 * MIN);
  rollout(ids.interrupted, repo, false, now - 10 * MIN);
  rollout(ids.sibling, sibling, false, now - MIN);
  const transcript = join(dir, 'claude', 'projects', '-repo', `${ids.running}.jsonl`);
  const at = now - 40 * MIN;
  writeSession(
    transcript,
    [
      transcriptLine(
        { type: 'user', message: { role: 'user', content: 'fix the tests' } },
        ids.running,
        repo,
        at - 2000,
      ),
      transcriptLine(claudeLines.toolUse(ids.running, 'toolu_1', 'npm test'), ids.running, repo, at),
    ],
    at,
  );
  return { repo, transcript };
}

test("watch shows each session's turn state from its file, picks only this repository's, and signals nothing", async (t) => {
  const dir = tempDir(t);
  const now = Date.now();
  const { repo, transcript } = layOut(dir, now);
  // The "agent" writing the transcript: holds it open and logs every signal it is sent.
  const signalLog = join(dir, 'signals.log');
  const fd = openSync(transcript, 'a');
  const holder = spawn(
    'sh',
    [
      '-c',
      `for s in HUP INT QUIT USR1 USR2 TERM ALRM CONT TSTP; do trap "echo $s >> ${signalLog}" $s; done; : > ${signalLog}; echo ready > ${signalLog}.ready; while :; do sleep 1 3>&-; done`,
    ],
    { stdio: ['ignore', 'ignore', 'ignore', fd] },
  );
  closeSync(fd);
  t.after(() => holder.kill('SIGKILL'));
  await waitFor(() => existsSync(`${signalLog}.ready`), 5000, 'the holder to start');
  utimesSync(transcript, new Date(now - 40 * MIN), new Date(now - 40 * MIN));
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    DEADMAN_CONFIG: '',
    HOME: dir,
  };
  const watch = async (...args: string[]) => {
    const finished = await runDeadman(['watch', '--once', '--json', ...args], { cwd: join(repo), env });
    assert.equal(finished.code, 0, finished.stderr);
    return JSON.parse(finished.stdout) as {
      sessionId: string;
      turn: string;
      why: string;
      events: number;
      latest: string;
      signals: string[];
      cwd: string;
      counts: Record<string, number>;
    };
  };

  const completed = await watch('--session', ids.completed);
  assert.equal(completed.turn, 'completed');
  assert.equal(completed.latest, 'task_complete');
  assert.deepEqual(completed.counts, { session_meta: 1, task_started: 1, item_completed: 1, task_complete: 1 });
  assert.deepEqual(completed.signals, []);

  const interrupted = await watch('--session', ids.interrupted);
  assert.equal(interrupted.turn, 'interrupted');
  assert.match(interrupted.why, /never completed.*no process holds the session file/);
  assert.deepEqual(interrupted.signals, ['revivable: deadman revive would resume it']);

  const running = await watch('--session', ids.running);
  assert.equal(running.turn, 'running');
  assert.match(running.why, new RegExp(`pid ${holder.pid} holds the session file open`));
  assert.equal(running.events, 2);
  assert.equal(running.signals.length, 1);
  assert.match(running.signals[0]!, /^OUTPUT_INACTIVITY: no session write for 40min( \d+s)?$/);

  // Without --session: the newest session of this repository, not the newer one of repo2.
  assert.equal((await watch()).sessionId, ids.interrupted);
  const text = await runDeadman(['watch', '--once', '--session', ids.running], { cwd: join(repo, '.git'), env });
  assert.match(text.stdout, /turn {7}running: open turn; pid \d+ holds the session file open/);
  assert.match(text.stdout, /workspace {2}.*\/repo\n/);

  const foreign = await runDeadman(['watch', '--once', '--session', ids.sibling], { cwd: repo, env });
  assert.equal(foreign.code, 1);
  assert.match(
    foreign.stderr,
    /^deadman: session .* is not a session of .*\/repo \(its workspace is .*\/repo2\): run deadman watch there/,
  );

  assert.equal(holder.exitCode, null, 'the agent is still running');
  assert.equal(readFileSync(signalLog, 'utf8'), '', 'no signal was sent to it');
});
