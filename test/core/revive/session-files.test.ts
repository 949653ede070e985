import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import {
  markerForSession,
  readClaudeTranscript,
  readCodexRollout,
  selectInterrupted,
  type SessionFinding,
} from '../../../lib/core/revive/session-files.ts';
import { decideRevive } from '../../../lib/core/revive/marker.ts';
import { buildResumeArgv } from '../../../lib/core/revive/resume-argv.ts';
import { fixtureLines, fixturePath } from '../../helpers/fixtures.ts';

function codex(id: string): SessionFinding {
  const file = readdirSync(fixturePath('sessions', 'codex')).find((name) => name.includes(id))!;
  return readCodexRollout(fixtureLines('sessions', 'codex', file))!;
}
const claude = (file: string) => readClaudeTranscript(fixtureLines('sessions', 'claude', `${file}.jsonl`))!;

test('Codex rollouts: completed, aborted by SIGINT, killed mid-turn, sub-agent', () => {
  const completed = codex('27f3');
  assert.deepEqual(
    { ...completed, lastTimestamp: null },
    {
      agent: 'codex',
      sessionId: '01a23013-27f3-73e2-b3cb-86b68ffb84d0',
      cwd: '/srv/exp/work',
      root: true,
      interruption: null,
      stoppedByPerson: null,
      revivesSinceUserInput: 0,
      lastTimestamp: null,
      task: 'please run the tests',
      resumeFlags: ['-s', 'danger-full-access', '-m', 'gpt-5.1-codex', '-C', '/srv/exp/work'],
    },
  );
  assert.equal(completed.lastTimestamp, Date.parse('2026-12-01T05:28:12.087Z'));
  assert.deepEqual(
    [codex('5833').interruption, codex('5833').stoppedByPerson],
    [null, 'a person aborted the turn (interrupted)'],
    "a person's Ctrl-C is not revived",
  );
  const killed = codex('d203');
  assert.equal(killed.interruption, 'a turn started and never completed (the process was killed)');
  assert.deepEqual(killed.resumeFlags.slice(0, 2), ['-s', 'workspace-write']);
  assert.equal(killed.task, 'hang please');
  assert.equal(codex('5ab0').root, false, 'a sub-agent thread');
});

test('Claude transcripts: completed, SIGINT, SIGINT then a new prompt, SIGTERM, SIGKILL, sidechain', () => {
  const completed = claude('ac560149-bd95-4952-8454-02b5e50a01a2');
  assert.deepEqual(
    [completed.interruption, completed.task, completed.root, completed.cwd],
    [null, 'run the tests', true, '/srv/exp/cwork'],
  );
  assert.deepEqual(completed.resumeFlags, ['--permission-mode', 'default']);
  const esc = claude('3934d793-018c-4550-ad20-8de3cd3ead8e');
  assert.deepEqual(
    [esc.interruption, esc.stoppedByPerson],
    [null, 'a person interrupted the turn ("[Request interrupted by user…]")'],
    "a person's Esc is not revived",
  );
  assert.equal(claude('5e55a0e1-018c-4550-ad20-8de3cd3ead8e').interruption, null, 'someone typed since');
  assert.equal(
    claude('4178d872-bec3-4292-986e-d0becf3b5e5e').interruption,
    'a tool call has no result (the process was killed)',
  );
  assert.equal(
    claude('749ff33f-ad46-4300-ab98-18282fac6489').interruption,
    'a tool call has no result (the process was killed)',
  );
  assert.equal(claude('agent-5a1dc4a1').root, false);
});

test('garbage and cut lines are skipped; files with no session are not findings', () => {
  const lines = fixtureLines(
    'sessions',
    'codex',
    readdirSync(fixturePath('sessions', 'codex')).find((n) => n.includes('d203'))!,
  );
  const damaged = [...lines.slice(0, -1), 'garbage', '', '{"type":', lines.at(-1)!.slice(0, 50)];
  assert.equal(readCodexRollout(damaged)!.interruption, 'a turn started and never completed (the process was killed)');
  for (const read of [readCodexRollout, readClaudeTranscript]) {
    assert.equal(read([]), null);
    assert.equal(read(['not json', '{"type":"session_meta","payload":7}', '[]', 'null']), null);
  }
});

test('selection: root, interrupted, a plain id, and fresh by both mtime and last line', () => {
  const now = Date.parse('2026-12-01T06:00:00Z');
  const hour = 3_600_000;
  const found = (finding: SessionFinding, mtimeMs: number, path = finding.sessionId) => ({ finding, path, mtimeMs });
  const killed = codex('d203');
  const candidates = [
    found(killed, now - 60_000, 'fresh'),
    found(codex('27f3'), now, 'completed'),
    found(codex('5ab0'), now, 'sub-agent'),
    found(killed, now - 2 * hour, 'old mtime'),
    found({ ...killed, lastTimestamp: now - 2 * hour }, now, 'restored backup: new mtime, old lines'),
    found({ ...killed, sessionId: '--yolo' }, now, 'unsafe id'),
    found({ ...killed, lastTimestamp: null }, now - 60_000, 'no timestamps: mtime decides'),
  ];
  assert.deepEqual(
    selectInterrupted(candidates, now, hour).map((c) => c.path),
    ['fresh', 'no timestamps: mtime decides'],
  );
  assert.equal(selectInterrupted(candidates, now, 0).length, 4, 'max_age off');
});

test('a found session becomes a revivable marker with its settings repeated', () => {
  const now = Date.parse('2026-12-01T06:00:00Z');
  const marker = markerForSession(codex('d203'), now);
  assert.equal(marker.name, 'codex-01a23013-d203-7e73-a729-ad3fd664d058');
  assert.deepEqual(decideRevive(marker, { now, livePid: null, maxAgeMs: 3_600_000, maxRevives: 5 }), {
    revive: true,
    sessionId: '01a23013-d203-7e73-a729-ad3fd664d058',
    attempt: 1,
    budget: 5,
  });
  assert.deepEqual(buildResumeArgv(marker, { message: 'M' }), [
    'codex',
    'exec',
    '--json',
    '--skip-git-repo-check',
    '-s',
    'workspace-write',
    '-m',
    'gpt-5.1-codex',
    '-C',
    '/srv/exp/work',
    'resume',
    '01a23013-d203-7e73-a729-ad3fd664d058',
    'M',
  ]);
  const claudeMarker = markerForSession(claude('4178d872-bec3-4292-986e-d0becf3b5e5e'), now);
  assert.deepEqual(buildResumeArgv(claudeMarker, { message: 'M' }), [
    'claude',
    '-p',
    'M',
    '--resume',
    '4178d872-bec3-4292-986e-d0becf3b5e5e',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-mode',
    'default',
  ]);
  assert.equal(claudeMarker.task, 'hang TERM');
});

// Neverdie's budget with no marker: the session file's own count of revive prompts in a row.
test('revive prompts since the last genuine prompt count against max_revives, Codex and Claude', () => {
  const now = Date.parse('2026-12-01T08:00:00Z');
  const sessions = [
    ['codex', fixtureLines('revive-budget', 'rollout-2026-12-01T06-00-00-01a23013-4e4e-7e73-a729-0000000000c4.jsonl')],
    ['claude', fixtureLines('revive-budget', 'c1a0d3e4-5f60-4718-8a9b-0c1d2e3f4a5b.jsonl')],
  ] as const;
  for (const [agent, lines] of sessions) {
    const read = agent === 'codex' ? readCodexRollout : readClaudeTranscript;
    const finding = read(lines)!;
    // genuine, revive, revive, a genuine prompt, then four revives, the last cut off.
    assert.equal(finding.revivesSinceUserInput, 4, agent);
    assert.equal(finding.task, 'fix the parser tests', agent);
    assert.notEqual(finding.interruption, null, agent);
    const marker = markerForSession(finding, now);
    assert.equal(marker.reviveCount, 4, agent);
    const exhausted = decideRevive(marker, { now, livePid: null, maxAgeMs: 0, maxRevives: 2 });
    assert.deepEqual(
      exhausted,
      { revive: false, outcome: 'exhausted', reason: 'revive budget spent: 4 of 2 revives without a clean completion' },
      agent,
    );
    assert.deepEqual(
      decideRevive(marker, { now, livePid: null, maxAgeMs: 0, maxRevives: 5 }),
      { revive: true, sessionId: finding.sessionId, attempt: 5, budget: 5 },
      agent,
    );
    // Cut after the second revive: two in a row; after the genuine prompt's turn: none.
    const turnsOf = (count: number) => {
      const starts = lines.flatMap((line, i) =>
        (agent === 'codex' ? line.includes('"task_started"') : line.includes('"operation":"enqueue"')) ? [i] : [],
      );
      return lines.slice(0, starts[count] ?? lines.length);
    };
    assert.equal(read(turnsOf(3))!.revivesSinceUserInput, 2, `${agent}: after two revives`);
    assert.equal(read(turnsOf(4))!.revivesSinceUserInput, 0, `${agent}: a genuine prompt starts it over`);
  }
});
