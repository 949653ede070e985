import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceFor, buildReport, PREVENTION_ADVICE, type IncidentRows } from '../../../lib/core/incident/report.ts';
import { renderIncidentList, renderReportText, treeOrder } from '../../../lib/core/incident/report-text.ts';

const T0 = Date.UTC(2026, 11, 1, 8, 50, 12, 345);
const proc = (pid: number, ppid: number, cmdline: string[], extra: object = {}) => ({
  pid,
  ppid,
  pgid: ppid,
  sid: ppid,
  startTime: 1000 + pid,
  state: 'S',
  comm: cmdline[0] ?? '',
  cmdline,
  cpuTicks: 7,
  ioBytes: 0,
  listening: false,
  ...extra,
});

function hungRows(): IncidentRows {
  return {
    incident: {
      id: 3,
      run_id: 1,
      kind: 'HUNG_PROCESS',
      state: 'RESOLVED',
      message: 'python3 (pid 42) idle for 1m 0s',
      opened_at: T0,
      updated_at: T0 + 9000,
    },
    run: {
      id: 1,
      name: 'review',
      argv: ['codex', 'exec', '--json', 'fix it'],
      cwd: '/srv/repo',
      unit: 'deadman-review.service',
      started_at: T0 - 60_000,
      ended_at: T0 + 20_000,
      exit_code: 0,
      signal: null,
      outcome: 'completed',
      reason: 'exit 0',
    },
    signal: {
      at: T0,
      kind: 'HUNG_PROCESS',
      message: 'python3 (pid 42) idle for 1m 0s',
      evidence: {
        processes: [
          proc(10, 1, ['node', 'fake-agent.js']),
          proc(42, 41, ['python3', '-c', 'import subprocess']),
          proc(41, 10, ['bash', '-c', 'python3 …']),
          proc(43, 42, ['sleep', '600']),
        ],
        lastLines: ['{"type":"item.started","item":{"type":"command_execution"}}', 'evil \x1b[2J clear'],
        target: proc(42, 41, ['python3', '-c', 'import subprocess']),
      },
    },
    transitions: [
      { at: T0, from_state: null, to_state: 'OPEN', reason: 'python3 (pid 42) idle for 1m 0s' },
      { at: T0 + 10, from_state: 'OPEN', to_state: 'RECOVERING', reason: 'auto_recover is on' },
      { at: T0 + 5000, from_state: 'RECOVERING', to_state: 'VERIFYING', reason: 'killed 2 processes' },
      { at: T0 + 9000, from_state: 'VERIFYING', to_state: 'RESOLVED', reason: 'new output after the kill' },
    ],
    diagnoses: [
      { at: T0, source: 'rules', action: 'TERMINATE_DESCENDANT_PROCESS', rationale: 'a descendant made no progress' },
    ],
    decisions: [{ at: T0 + 5, action: 'TERMINATE_DESCENDANT_PROCESS', verdict: 'allow', reason: 'auto_recover is on' }],
    actions: [
      {
        at: T0 + 5000,
        kind: 'TERMINATE_DESCENDANT_PROCESS',
        target: proc(42, 41, ['python3']),
        result: 'killed',
        detail: { killed: [42, 43], survived: [] },
      },
    ],
    verifications: [{ at: T0 + 9000, verdict: 'RESOLVED', detail: 'target gone and the agent printed 2 events' }],
    recurrences: [],
  };
}

test('the JSON report holds the timeline, evidence, action, verification and advice', () => {
  const report = buildReport(hungRows());
  assert.equal(report.openedAt, '2026-12-01T08:50:12.345Z');
  assert.deepEqual(
    report.timeline.map((t) => `${t.from ?? '-'}>${t.to}`),
    ['->OPEN', 'OPEN>RECOVERING', 'RECOVERING>VERIFYING', 'VERIFYING>RESOLVED'],
  );
  assert.equal(report.signal?.processes.length, 4);
  assert.equal(report.signal?.target?.pid, 42);
  assert.equal(report.signal?.lastLines.length, 2);
  assert.deepEqual(report.actions[0]?.killed, [42, 43]);
  assert.deepEqual(report.actions[0]?.survived, []);
  assert.equal(report.verifications[0]?.verdict, 'RESOLVED');
  assert.equal(report.advice, PREVENTION_ADVICE.HUNG_PROCESS);
  assert.deepEqual(report.run?.argv, ['codex', 'exec', '--json', 'fix it']);
  assert.deepEqual(JSON.parse(JSON.stringify(report)), report, 'plain JSON');
});

test('the text report reads top to bottom: what, to what, what was done, did it help, advice', () => {
  const text = renderReportText(buildReport(hungRows()));
  const order = [
    'incident #3 · HUNG_PROCESS · RESOLVED',
    'run #1 · review · deadman-review.service',
    'timeline',
    '2026-12-01 08:50:12Z',
    'signal ',
    'process tree at detection',
    'last output lines',
    'action ',
    'died:     42, 43',
    'survived: none',
    'verification ',
    'advice: ',
  ];
  let at = -1;
  for (const part of order) {
    const next = text.indexOf(part, at + 1);
    assert.ok(next > at, `"${part}" after the previous part`);
    at = next;
  }
  assert.match(text, /python3 -c "import subprocess"  ◀ target/);
  assert.match(text, /^ {4}.* {4}sleep 600$/m, 'the grandchild is indented under its parent');
  assert.ok(!text.includes('\x1b'), 'terminal escapes from the child are made visible, not sent');
  assert.match(text, /evil \\x1b\[2J clear/);
});

test('missing or garbage evidence never breaks a report', () => {
  const rows = hungRows();
  const garbage: IncidentRows = {
    ...rows,
    incident: { ...rows.incident, kind: 'SOMETHING_NEW' },
    run: { ...rows.run!, argv: 'not an array' },
    signal: {
      ...rows.signal!,
      evidence: { processes: [{ pid: 'x' }, null, 7, proc(5, 1, [])], lastLines: 'nope', target: { nonsense: true } },
    },
    actions: [{ ...rows.actions[0]!, detail: 'truncated {', target: null }],
    verifications: [{ at: T0, verdict: 'NOT_RESOLVED', detail: { why: 'still idle' } }],
  };
  const report = buildReport(garbage);
  assert.deepEqual(
    report.signal?.processes.map((p) => p.pid),
    [5],
  );
  assert.deepEqual(report.signal?.lastLines, []);
  assert.equal(report.signal?.target, null);
  assert.deepEqual(report.actions[0]?.killed, []);
  assert.deepEqual(report.run?.argv, []);
  assert.equal(report.verifications[0]?.detail, '{"why":"still idle"}');
  assert.equal(report.advice, adviceFor('SOMETHING_NEW'));
  assert.match(renderReportText(report), /\[\]/, 'a process without cmdline shows its comm');
  const bare = buildReport({
    ...rows,
    run: null,
    signal: null,
    transitions: [],
    diagnoses: [],
    decisions: [],
    actions: [],
    verifications: [],
  });
  assert.match(renderReportText(bare), /no transitions recorded[\s\S]*no recovery action was taken/);
});

test('every incident kind has one line of advice', () => {
  for (const [kind, advice] of Object.entries(PREVENTION_ADVICE)) {
    assert.ok(advice.length > 40 && !advice.includes('\n'), kind);
  }
});

test('treeOrder puts parents first and survives ppid cycles', () => {
  const order = treeOrder(
    [proc(3, 2, ['c']), proc(1, 0, ['a']), proc(2, 1, ['b'])].map((p) => ({
      ...p,
      startTime: p.startTime,
      cpuTicks: p.cpuTicks,
    })),
  );
  assert.deepEqual(
    order.map(([depth, p]) => `${depth}:${p.pid}`),
    ['0:1', '1:2', '2:3'],
  );
  const cycle = treeOrder([proc(7, 8, ['x']), proc(8, 7, ['y'])]);
  assert.deepEqual(cycle.map(([, p]) => p.pid).sort(), [7, 8]);
});

test('the incident list shows one line each, with age', () => {
  const rows = [
    {
      id: 1,
      kind: 'OUTPUT_INACTIVITY',
      state: 'ESCALATED',
      message: 'no output for 30m 0s',
      opened_at: T0,
      updated_at: T0,
      run_id: 4,
      run_name: 'review',
      recurrences: 0,
    },
    {
      id: 2,
      kind: 'EVIDENCE_FAILED',
      state: 'OPEN',
      message: 'report.csv is empty',
      opened_at: T0 + 1000,
      updated_at: T0,
      run_id: null,
      run_name: null,
      recurrences: 0,
    },
    {
      id: 3,
      kind: 'OUTPUT_INACTIVITY',
      state: 'ESCALATED',
      message: 'no output for 30m 0s',
      opened_at: T0 + 2000,
      updated_at: T0,
      run_id: 5,
      run_name: 'loop',
      recurrences: 4,
    },
  ];
  const text = renderIncidentList(rows, T0 + 3 * 3_600_000);
  assert.match(
    text,
    /^#1 +2026-12-01 08:50:12Z 3 hours ago +OUTPUT_INACTIVITY +ESCALATED +review +no output for 30m 0s$/m,
  );
  assert.match(text, /^#2 .* EVIDENCE_FAILED .* - +report\.csv is empty$/m);
  assert.match(text, /^#3 .* loop +\(5 times\) no output for 30m 0s$/m);
  assert.match(text, /3 incidents · details: deadman report <id>/);
  assert.equal(renderIncidentList([], T0), 'no incidents recorded\n');
});

test('a kind longer than the column widens it for every row, so the states stay in one column', () => {
  const row = {
    state: 'RESOLVED',
    message: 'm',
    opened_at: T0,
    updated_at: T0,
    run_id: null,
    run_name: null,
    recurrences: 0,
  };
  const text = renderIncidentList(
    [
      { ...row, id: 1, kind: 'HUNG_PROCESS' },
      { ...row, id: 2, kind: 'FINISHED_NOT_EXITED' },
    ],
    T0,
  );
  const stateColumns = text
    .split('\n')
    .slice(0, 2)
    .map((line) => line.indexOf(' RESOLVED'));
  assert.equal(stateColumns[0], stateColumns[1]);
  assert.match(text, /FINISHED_NOT_EXITED RESOLVED/);
});

test('a recurring stall shows how often it came back, and when', () => {
  const rows = hungRows();
  rows.incident.state = 'ESCALATED';
  rows.recurrences = [
    { at: T0 + 60_000, run_id: 2, message: 'python3 (pid 77) idle for 1m 0s' },
    { at: T0 + 120_000, run_id: 3, message: 'python3 (pid 91) idle for 1m 0s' },
  ];
  const report = buildReport(rows);
  assert.deepEqual(
    report.recurrences.map((r) => [r.at, r.runId]),
    [
      ['2026-12-01T08:51:12.345Z', 2],
      ['2026-12-01T08:52:12.345Z', 3],
    ],
  );
  const text = renderReportText(report);
  assert.match(
    text,
    /recurred 2 times after restarts, the same way:\n {4}2026-12-01 08:51:12Z  run #2  python3 \(pid 77\)/,
  );
  assert.match(text, /08:52:12Z  run #3 /);
});
