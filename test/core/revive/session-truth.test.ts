import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decideRevive,
  markCompleted,
  markExhausted,
  markInterrupted,
  newMarker,
  withSessionId,
  type Marker,
} from '../../../lib/core/revive/marker.ts';
import { readClaudeTranscript, readCodexRollout } from '../../../lib/core/revive/session-files.ts';
import { reconcileWithSession } from '../../../lib/core/revive/session-truth.ts';
import { reviveMessage } from '../../../lib/core/revive/resume-argv.ts';

/** Hand-made rollouts and transcripts of the real shapes (docs: /work/shared/reference/agent-formats.md). */

const ID = '01a23013-27f3-73e2-b3cb-86b68ffb84d0';
const T0 = Date.parse('2026-12-01T08:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const line = (value: object) => JSON.stringify(value);

const codex = {
  meta: (m: number) => line({ timestamp: at(m), type: 'session_meta', payload: { id: ID, cwd: '/w', source: 'exec' } }),
  started: (m: number) => line({ timestamp: at(m), type: 'event_msg', payload: { type: 'task_started' } }),
  user: (m: number, text: string) =>
    line({
      timestamp: at(m),
      type: 'event_msg',
      payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text }] } },
    }),
  complete: (m: number) => line({ timestamp: at(m), type: 'event_msg', payload: { type: 'task_complete' } }),
  aborted: (m: number) =>
    line({ timestamp: at(m), type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } }),
};
const turn = (m: number, text: string) => [codex.started(m), codex.user(m, text)];
const revivePrompt = reviveMessage('migrate the db');

function marker(changes: Partial<Marker> = {}): Marker {
  const m = withSessionId(
    newMarker({
      name: 'job',
      adapter: 'codex',
      argv: ['codex', 'exec', '--json', 'migrate the db'],
      cwd: '/w',
      owner: null,
      now: T0,
    }),
    ID,
    T0,
  );
  return { ...m, ...changes };
}
const settings = { now: T0 + 60 * 60_000, livePid: null, maxAgeMs: 0, maxRevives: 3 };

test('counts revive prompts since the last genuine user turn; a genuine prompt or a completed turn resets', () => {
  const lines = [codex.meta(0), ...turn(1, 'migrate the db'), ...turn(2, revivePrompt), ...turn(3, revivePrompt)];
  assert.equal(readCodexRollout(lines)!.revivesSinceUserInput, 2);
  assert.equal(
    readCodexRollout([...lines, ...turn(4, 'now also fix the docs')])!.revivesSinceUserInput,
    0,
    'genuine input',
  );
  assert.equal(readCodexRollout([...lines, codex.complete(4)])!.revivesSinceUserInput, 0, 'completed turn');
  assert.equal(readCodexRollout([...lines, codex.complete(4), ...turn(5, revivePrompt)])!.revivesSinceUserInput, 1);
  assert.ok(revivePrompt.startsWith(reviveMessage(null)));
});

const claude = {
  user: (m: number, text: string) =>
    line({ type: 'user', sessionId: ID, cwd: '/w', isSidechain: false, timestamp: at(m), message: { content: text } }),
  toolUse: (m: number, id: string) =>
    line({
      type: 'assistant',
      sessionId: ID,
      isSidechain: false,
      timestamp: at(m),
      message: { content: [{ type: 'tool_use', id }], stop_reason: 'tool_use' },
    }),
  endTurn: (m: number) =>
    line({
      type: 'assistant',
      sessionId: ID,
      isSidechain: false,
      timestamp: at(m),
      message: { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
    }),
  apiError: (m: number) =>
    line({
      type: 'assistant',
      sessionId: ID,
      isSidechain: false,
      isApiErrorMessage: true,
      timestamp: at(m),
      message: { content: [{ type: 'text', text: 'API Error: 529' }], stop_reason: 'stop_sequence' },
    }),
};

test('Claude: revive prompts count until the model ends a turn (stop_reason end_turn) or a person types', () => {
  const killedTwice = [
    claude.user(0, 'migrate the db'),
    claude.toolUse(1, 'toolu_1'),
    claude.user(2, revivePrompt),
    claude.toolUse(3, 'toolu_2'),
    claude.user(4, revivePrompt),
    claude.toolUse(5, 'toolu_3'),
  ];
  const twice = readClaudeTranscript(killedTwice)!;
  assert.deepEqual([twice.revivesSinceUserInput, twice.interruption !== null], [2, true]);
  const healed = [...killedTwice.slice(0, 5), claude.endTurn(5)];
  assert.deepEqual(
    [readClaudeTranscript(healed)!.revivesSinceUserInput, readClaudeTranscript(healed)!.interruption],
    [0, null],
    'the revived turn completed',
  );
  const laterCut = readClaudeTranscript([...healed, claude.user(30, revivePrompt), claude.toolUse(31, 'toolu_4')])!;
  assert.equal(laterCut.revivesSinceUserInput, 1, 'only the revives since the completed turn count');
  const apiError = readClaudeTranscript([...killedTwice.slice(0, 5), claude.apiError(5)])!;
  assert.equal(apiError.revivesSinceUserInput, 2, 'an API error ends nothing');
  const spent = markExhausted(
    marker({ adapter: 'claude', argv: ['claude', '-p', 'migrate the db'], reviveCount: 3 }),
    'spent',
    T0 + 2 * 60_000,
  );
  const truth = reconcileWithSession(spent, laterCut);
  assert.deepEqual([truth.state, truth.reviveCount], ['interrupted', 1]);
  assert.equal(decideRevive(truth, settings).revive, true, 'a spent budget starts over after a completed turn');
});

test('a session revived, completed, then cut off again is revived again', () => {
  const completedAfterRevive = markCompleted(marker({ reviveCount: 2 }), T0 + 5 * 60_000);
  assert.equal(decideRevive(completedAfterRevive, settings).revive, false);
  const file = readCodexRollout([
    codex.meta(0),
    ...turn(1, 'migrate the db'),
    codex.complete(4),
    ...turn(10, 'one more thing: rerun the tests'),
  ])!;
  const truth = reconcileWithSession(completedAfterRevive, file);
  assert.equal(truth.state, 'interrupted');
  assert.deepEqual(decideRevive(truth, settings), { revive: true, sessionId: ID, attempt: 1, budget: 3 });
});

test('an exhausted session is revived after a genuine user turn, not before', () => {
  const exhausted = markExhausted(marker({ reviveCount: 3 }), 'spent', T0 + 5 * 60_000);
  const onlyRevives = readCodexRollout([
    codex.meta(0),
    ...turn(1, 'migrate the db'),
    ...turn(2, revivePrompt),
    ...turn(3, revivePrompt),
    ...turn(4, revivePrompt),
  ])!;
  assert.equal(
    reconcileWithSession(exhausted, onlyRevives),
    exhausted,
    'the file is older than the marker: the marker stands',
  );
  const person = readCodexRollout([
    codex.meta(0),
    ...turn(1, 'migrate the db'),
    ...turn(4, revivePrompt),
    ...turn(20, 'please continue with the rollback plan'),
  ])!;
  const truth = reconcileWithSession(exhausted, person);
  assert.deepEqual([truth.state, truth.reviveCount], ['interrupted', 0]);
  assert.equal(decideRevive(truth, settings).revive, true);
  const stillSpent = readCodexRollout([
    codex.meta(0),
    ...turn(1, 'migrate the db'),
    ...turn(20, revivePrompt),
    ...turn(21, revivePrompt),
    ...turn(22, revivePrompt),
  ])!;
  assert.equal(
    decideRevive(reconcileWithSession(exhausted, stillSpent), settings).revive,
    false,
    'three revive prompts since the genuine one: still spent',
  );
});

test('a turn a person stopped is never revived: Codex turn_aborted, Claude "[Request interrupted by user"', () => {
  const interrupted = markInterrupted(marker(), 'exit 1', T0 + 60_000);
  const codexAborted = readCodexRollout([codex.meta(0), ...turn(1, 'migrate the db'), codex.aborted(5)])!;
  assert.equal(codexAborted.interruption, null);
  assert.deepEqual(decideRevive(reconcileWithSession(interrupted, codexAborted), settings), {
    revive: false,
    outcome: 'fresh',
    reason: 'the last run completed',
  });

  const claudeLines = [
    line({
      type: 'user',
      sessionId: ID,
      cwd: '/w',
      isSidechain: false,
      timestamp: at(1),
      message: { content: 'migrate the db' },
    }),
    line({
      type: 'assistant',
      sessionId: ID,
      isSidechain: false,
      timestamp: at(2),
      message: { content: [{ type: 'tool_use', id: 'toolu_1' }] },
    }),
    line({
      type: 'user',
      sessionId: ID,
      isSidechain: false,
      timestamp: at(3),
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', text: "The user doesn't want to proceed with this tool use." },
        ],
      },
    }),
    line({
      type: 'user',
      sessionId: ID,
      isSidechain: false,
      timestamp: at(3),
      message: { content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
    }),
  ];
  const esc = readClaudeTranscript(claudeLines)!;
  assert.deepEqual([esc.interruption, esc.stoppedByPerson !== null], [null, true]);
  const killed = readClaudeTranscript(claudeLines.slice(0, 2))!;
  assert.match(killed.interruption!, /no result/, 'the same turn killed instead is revivable');
  assert.equal(
    decideRevive(
      reconcileWithSession({ ...interrupted, adapter: 'claude', argv: ['claude', '-p', 'migrate the db'] }, esc),
      settings,
    ).revive,
    false,
  );
});

test('a running marker is not overruled by its session file', () => {
  const running = marker();
  const file = readCodexRollout([codex.meta(0), ...turn(30, 'x'), codex.complete(31)])!;
  assert.equal(reconcileWithSession(running, file), running);
});
