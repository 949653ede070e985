import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeHealth } from '../../../lib/core/status/health.ts';
import { statusRows, type StatusRun } from '../../../lib/core/status/run-status-rows.ts';
import { signalRow } from '../../../lib/core/signals/registry.ts';
import { settleLostRuns } from '../../../lib/io/store/lost-runs.ts';
import { listIncidents } from '../../../lib/io/store/incident-records.ts';
import { loadRunFacts } from '../../../lib/io/store/run-facts.ts';
import { Store } from '../../../lib/io/store/store.ts';
import { withAbandoned } from '../../../lib/commands/shared/open-existing-store.ts';

/**
 * `status`, `metrics` and `health` over every run state × incident state, as docs/status.md
 * tabulates them. Each run is one row of an in-memory database (the same queries the commands
 * run), its deadman's liveness injected: what a reader shows depends on the row and on that
 * live check only.
 */

interface RunCase {
  label: string;
  row: Partial<StatusRun>;
  ownerAlive: boolean;
  /** status: its state, and whether it needs a person by itself (exit 1). */
  state: string;
  attention: boolean;
  /** metrics: deadman_run_running; health: whether the probe can pass at all. */
  running: boolean;
}

const ended = (outcome: string, exit: number | null, signal: string | null = null): Partial<StatusRun> => ({
  ended_at: 2_000,
  outcome,
  exit_code: exit,
  signal,
});
const RUNS: RunCase[] = [
  {
    label: 'live',
    row: { ended_at: null, outcome: null },
    ownerAlive: true,
    state: 'running',
    attention: false,
    running: true,
  },
  {
    label: 'deadman SIGKILLed',
    row: { ended_at: null, outcome: null },
    ownerAlive: false,
    state: 'killed',
    attention: true,
    running: false,
  },
  {
    label: 'watchdog abort after a stall',
    row: { ended_at: null, outcome: 'stalled' },
    ownerAlive: false,
    state: 'killed',
    attention: true,
    running: false,
  },
  {
    label: 'lost, closed by the next start',
    row: { ...ended('lost', null, 'unknown'), lost: 1 },
    ownerAlive: false,
    state: 'killed',
    attention: true,
    running: false,
  },
  {
    label: 'lost, closed by ExecStopPost= (systemd: SIGKILL)',
    row: { ...ended('lost', null, 'SIGKILL'), lost: 1 },
    ownerAlive: false,
    state: 'killed',
    attention: true,
    running: false,
  },
  {
    label: 'completed',
    row: ended('completed', 0),
    ownerAlive: false,
    state: 'completed',
    attention: false,
    running: false,
  },
  {
    label: 'systemctl stop',
    row: ended('stopped', null, 'SIGTERM'),
    ownerAlive: false,
    state: 'stopped',
    attention: false,
    running: false,
  },
  { label: 'exit 3', row: ended('failed', 3), ownerAlive: false, state: 'failed', attention: true, running: false },
  {
    label: 'green but dead',
    row: ended('green-but-dead', 65),
    ownerAlive: false,
    state: 'green_but_dead',
    attention: true,
    running: false,
  },
  {
    label: 'stalled, exit 75',
    row: ended('stalled', 75),
    ownerAlive: false,
    state: 'stalled',
    attention: true,
    running: false,
  },
  {
    label: '--timeout',
    row: ended('timeout', 124),
    ownerAlive: false,
    state: 'timeout',
    attention: true,
    running: false,
  },
  {
    label: 'revive budget spent',
    row: ended('revive-exhausted', 69),
    ownerAlive: false,
    state: 'exhausted',
    attention: true,
    running: false,
  },
  {
    label: 'HALT_AND_ESCALATE',
    row: ended('halted', 69),
    ownerAlive: false,
    state: 'halted',
    attention: true,
    running: false,
  },
  {
    label: 'waiting in-process for a usage reset (pass row 75)',
    row: ended('usage-limit', 75),
    ownerAlive: true,
    state: 'running',
    attention: false,
    running: true,
  },
  {
    label: 'killed while waiting for a usage reset',
    row: ended('usage-limit', 75),
    ownerAlive: false,
    state: 'killed',
    attention: true,
    running: false,
  },
  {
    label: 'usage limit beyond max_wait',
    row: ended('usage-limit', 69),
    ownerAlive: false,
    state: 'usage_limit',
    attention: true,
    running: false,
  },
  {
    label: 'spent credit',
    row: ended('credit-exhausted', 69),
    ownerAlive: false,
    state: 'credit_exhausted',
    attention: true,
    running: false,
  },
  {
    label: 'fresh sessions over budget too often',
    row: ended('respawn', 69),
    ownerAlive: false,
    state: 'exhausted',
    attention: true,
    running: false,
  },
  {
    label: 'refused marker',
    row: ended('revive-refused', null),
    ownerAlive: false,
    state: 'refused',
    attention: true,
    running: false,
  },
];

interface IncidentCase {
  state: string | null;
  /** status: needs a person (exit 1) whatever the run did. */
  needsPerson: boolean;
  /** metrics: counted in deadman_open_incidents (unless its lost run abandons it). */
  open: boolean;
}

const INCIDENTS: IncidentCase[] = [
  { state: null, needsPerson: false, open: false },
  { state: 'OPEN', needsPerson: false, open: true },
  { state: 'AWAITING_APPROVAL', needsPerson: true, open: true },
  { state: 'RECOVERING', needsPerson: false, open: true },
  { state: 'VERIFYING', needsPerson: false, open: true },
  { state: 'RESOLVED', needsPerson: false, open: false },
  { state: 'ESCALATED', needsPerson: true, open: true },
  { state: 'ABANDONED', needsPerson: false, open: false },
];

/** A lost run (no end recorded, or between two passes; its deadman gone) abandons what is unsettled: it waits on nobody. */
const abandonedByLoss = (run: RunCase, incident: IncidentCase) =>
  (run.row.ended_at === null || (run.row.outcome === 'usage-limit' && run.row.exit_code === 75)) &&
  !run.ownerAlive &&
  ['OPEN', 'AWAITING_APPROVAL', 'RECOVERING', 'VERIFYING'].includes(incident.state ?? '');

function recorded(run: RunCase, incident: IncidentCase): Store {
  const store = new Store(':memory:');
  store.insert('runs', {
    name: 'job',
    argv: [],
    cwd: '/',
    pid: 4242,
    pid_start_time: 7,
    adapter: 'generic',
    started_at: 1_000,
    token: 'x',
    ...run.row,
  });
  if (incident.state)
    store.insert('incidents', {
      run_id: 1,
      kind: 'HUNG_PROCESS',
      state: incident.state,
      message: 'hung',
      opened_at: 1_500,
      updated_at: 1_500,
    });
  return store;
}

test('status, metrics and health over every run state × incident state', () => {
  for (const run of RUNS) {
    for (const incident of INCIDENTS) {
      const cell = `${run.label} × ${incident.state ?? 'no incident'}`;
      const store = recorded(run, incident);
      const lost = settleLostRuns(store, 3_000, null, () => run.ownerAlive);
      const runs = store.all<StatusRun>('SELECT * FROM runs');
      const incidents = withAbandoned(listIncidents(store), lost);
      const [row] = statusRows(
        [],
        runs,
        incidents,
        (r) => !lost.runIds.has(r.id),
        (kind) => signalRow(kind)?.refusal === true,
      );
      const stillWaits = incident.needsPerson && !abandonedByLoss(run, incident);
      assert.equal(row!.state, run.state, cell);
      assert.equal(
        row!.needsAttention,
        run.attention || stillWaits,
        `${cell}: status exit ${run.attention || stillWaits ? 1 : 0}`,
      );
      assert.equal(
        row!.openIncident?.state ?? null,
        incident.open && !abandonedByLoss(run, incident) ? incident.state : null,
        `${cell}: open incident`,
      );

      const [facts] = loadRunFacts(store, { lost });
      assert.equal(facts!.state, row!.state, `${cell}: deadman_run_state says what status says`);
      const countedOpen = incident.open && !abandonedByLoss(run, incident);
      assert.equal(facts!.running, run.running, `${cell}: deadman_run_running`);
      assert.equal(facts!.healthy, run.running && !countedOpen, `${cell}: deadman_run_healthy`);
      assert.deepEqual(
        facts!.openIncidents,
        countedOpen ? [{ kind: 'HUNG_PROCESS', state: incident.state, count: 1 }] : [],
        `${cell}: deadman_open_incidents`,
      );
      store.close();
    }
    // health reads the run's own file: healthy only while its deadman lives and says so.
    const file = {
      name: 'job',
      pid: 4242,
      pid_start_time: 7,
      updated_at: 2_900,
      interval_ms: 2_000,
      status: 'ok',
      healthy: true,
    };
    assert.equal(judgeHealth(file, 3_000, 'job', run.ownerAlive).healthy, run.ownerAlive, `${run.label}: health`);
  }
});

test('health: each way a run stops being healthy, and no such run', () => {
  const file = {
    name: 'job',
    pid: 4242,
    pid_start_time: 7,
    updated_at: 10_000,
    interval_ms: 2_000,
    status: 'ok',
    healthy: true,
  };
  const cases: Array<
    [string, Parameters<typeof judgeHealth>[0], number, boolean, { healthy: boolean; known: boolean }]
  > = [
    ['refreshed, deadman alive', file, 10_500, true, { healthy: true, known: true }],
    [
      'stall written at once',
      { ...file, healthy: false, status: 'STALLED · x' },
      10_001,
      true,
      { healthy: false, known: true },
    ],
    ['deadman gone, file fresh', file, 10_001, false, { healthy: false, known: true }],
    ['deadman wedged: three refreshes missed', file, 16_001, true, { healthy: false, known: true }],
    [
      'older deadman file (no healthy field), fresh',
      { ...file, healthy: undefined },
      10_500,
      true,
      { healthy: true, known: true },
    ],
    ['no file: no such run', null, 10_000, false, { healthy: false, known: false }],
  ];
  for (const [label, record, now, alive, expected] of cases) {
    const verdict = judgeHealth(record, now, 'job', alive);
    assert.deepEqual({ healthy: verdict.healthy, known: verdict.known }, expected, label);
  }
});
