import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { FAKE_CODEX_COMMAND, fakeAgent } from '../helpers/fake-agent.ts';
import { query } from '../helpers/db.ts';
import { demoScenarios, type Scenario } from '../../lib/demo/scenarios.ts';
import { parseTrace } from '../../lib/core/session/trace.ts';
import { replayTrace } from '../../lib/supervise/trace/replay.ts';
import { Store } from '../../lib/io/store/store.ts';

/**
 * Replay equals live: every shipped scenario — the demo's and the situations of the shipped
 * traces (hung process, repeated failure, session handoff, silence, usage limit) — is run live
 * with `--record`, its trace replayed into a database of its own, and the two databases must
 * hold the same story: the same incidents (kind, fingerprint, state), and for each the same
 * transitions, decisions, actions and verifications, in the same order. REPLAY_EQUALS_LIVE_ONLY
 * set to a scenario's title runs that one alone.
 */

/** One line per row of a run's incidents, in the order each table wrote them. */
function story(database: string, afterRun: number): string[] {
  const rows = <T>(sql: string, ...params: number[]) => query<T>(database, sql, ...params);
  const incidents = rows<{ id: number; kind: string; fingerprint: string; state: string }>(
    'SELECT id, kind, fingerprint, state FROM incidents WHERE run_id > ? ORDER BY id',
    afterRun,
  );
  return incidents.flatMap((incident, index) => {
    const n = `#${index + 1} ${incident.kind}`;
    return [
      `${n} fingerprint ${incident.fingerprint}, ends ${incident.state}`,
      ...rows<{ from_state: string | null; to_state: string }>(
        'SELECT from_state, to_state FROM incident_transitions WHERE incident_id = ? ORDER BY id',
        incident.id,
      ).map((r) => `${n} transition ${r.from_state ?? '-'} → ${r.to_state}`),
      ...rows<{ action: string; verdict: string }>(
        'SELECT action, verdict FROM decisions WHERE incident_id = ? ORDER BY id',
        incident.id,
      ).map((r) => `${n} decision ${r.action} ${r.verdict}`),
      ...rows<{ kind: string; result: string }>(
        'SELECT kind, result FROM actions WHERE incident_id = ? ORDER BY id',
        incident.id,
      ).map((r) => `${n} action ${r.kind} ${r.result}`),
      ...rows<{ verdict: string }>(
        'SELECT verdict FROM verifications WHERE incident_id = ? ORDER BY id',
        incident.id,
      ).map((r) => `${n} verification ${r.verdict}`),
    ];
  });
}

async function replayInto(trace: string, database: string): Promise<number> {
  const parsed = parseTrace(readFileSync(trace, 'utf8'));
  assert.ok(parsed.ok, parsed.ok ? '' : `${trace}: ${parsed.problem}`);
  const store = new Store(database);
  try {
    const replayed = await replayTrace(parsed.trace, (ms) => new Promise((resolve) => setTimeout(resolve, ms)), {
      write: (_what, work) => work(store),
      close: () => {},
      generation: 0,
    });
    return replayed.exitCode;
  } finally {
    store.close();
  }
}

/** Runs one scenario live, each step recorded, and compares each step's replay with what the step left in the live database. */
async function liveEqualsReplay(scenario: Scenario, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (scenario.config) writeFileSync(scenario.config.file, scenario.config.text);
  for (const [index, step] of scenario.steps.entries()) {
    const database = step.argv[step.argv.indexOf('--database') + 1]!;
    const before = query<{ last: number | null }>(database, 'SELECT max(id) AS last FROM runs')[0]?.last ?? 0;
    const trace = join(dir, `${scenario.title.replace(/\W+/g, '-')}-${index + 1}.jsonl`);
    const run = step.argv.indexOf('run');
    const argv = [...step.argv.slice(1, run + 1), '--record', trace, ...step.argv.slice(run + 1)];
    const live = await runProgram(step.argv[0]!, argv, { cwd: dir, env: { ...env, ...step.env } });
    const replayedDb = join(dir, `replayed-${index}-${Date.now()}.db`);
    const exitCode = await replayInto(trace, replayedDb);
    const what = `${scenario.title}, step ${index + 1} (trace ${trace})`;
    assert.deepEqual(
      story(replayedDb, 0),
      story(database, before),
      `${what}: the replay's incidents differ from the live run's`,
    );
    assert.equal(
      exitCode,
      live.code,
      `${what}: the replay would exit ${exitCode}, the live run exited ${live.code}\n${live.stderr}`,
    );
  }
}

test(
  'every shipped scenario, run live with --record, replays to the incidents, transitions, decisions and actions its database holds',
  { timeout: 600_000 },
  async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const paths = { deadman: [process.execPath, deadmanBin], fakeAgent: [process.execPath, fakeAgent], dir, database };
    const env = {
      ...process.env,
      STATE_DIRECTORY: join(dir, 'state'),
      DEADMAN_CONFIG: '',
      NOTIFY_SOCKET: '',
      FAKE_AGENT_ARGV_LOG: join(dir, 'argv.jsonl'),
    };
    const budget = join(dir, 'budget.toml');
    const handoff: Scenario = {
      title: 'A session over its budget',
      story: 'the shipped session-handoff trace, live',
      config: { file: budget, text: '[budget]\ntokens = 10000\n' },
      steps: [
        {
          shown: '',
          argv: [
            process.execPath,
            deadmanBin,
            'run',
            '--database',
            database,
            '--config',
            budget,
            '--adapter',
            'codex',
            '--auto-recover',
            '--poll',
            '200ms',
            '--stop-grace',
            '2s',
            ...FAKE_CODEX_COMMAND,
          ],
          env: { FAKE_AGENT_SCENARIO: 'over-budget' },
        },
      ],
      expect: { exitCode: 0, incident: 'SESSION_BUDGET_RISK → RESOLVED' },
    };
    // Codex starts a tool before it prints the tool's event, and here the event names no process (the
    // tool runs as `tool-worker`): the live run places the birth by its start time, before the event;
    // a replay that placed it at first sight (the poll after the event) called it the tool's and
    // killed it where the live run did not.
    const spawnedFirst: Scenario = {
      title: 'A tool spawned before its event',
      story: 'the issue 32 run, with the fake agent',
      steps: [
        {
          shown: '',
          argv: [
            process.execPath,
            deadmanBin,
            'run',
            '--database',
            database,
            '--adapter',
            'codex',
            '--auto-recover',
            '--hung-timeout',
            '2s',
            '--timeout',
            '6s',
            '--poll',
            '1s',
            '--stop-grace',
            '1s',
            '--',
            process.execPath,
            fakeAgent,
            'codex',
            'exec',
            '--json',
            'fix the tests',
          ],
          env: {
            FAKE_AGENT_SCENARIO: 'hang-tool',
            FAKE_AGENT_TOOL: 'exec -a tool-worker sleep 600',
            FAKE_AGENT_TOOL_EVENT_DELAY_MS: '150',
          },
        },
      ],
      expect: { exitCode: 124, incident: null },
    };
    const chosen = process.env.REPLAY_EQUALS_LIVE_ONLY;
    const scenarios = [...demoScenarios(paths), handoff, spawnedFirst].filter((s) => !chosen || s.title === chosen);
    for (const scenario of scenarios) await liveEqualsReplay(scenario, dir, env);
  },
);

test(
  'a run stopped by SIGTERM while a tool hangs replays the stop when it came, to the same records and exit',
  { timeout: 120_000 },
  async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const trace = join(dir, 'stopped.jsonl');
    const child = spawn(
      process.execPath,
      [
        deadmanBin,
        'run',
        '--database',
        database,
        '--record',
        trace,
        '--adapter',
        'codex',
        '--poll',
        '250ms',
        '--stop-grace',
        '1s',
        '--',
        process.execPath,
        fakeAgent,
        'codex',
        'exec',
        '--json',
        'fix the tests',
      ],
      {
        cwd: dir,
        stdio: 'ignore',
        env: {
          ...process.env,
          STATE_DIRECTORY: join(dir, 'state'),
          DEADMAN_CONFIG: '',
          NOTIFY_SOCKET: '',
          FAKE_AGENT_SCENARIO: 'hang-tool',
        },
      },
    );
    // deadman re-raises the stop signal on itself: its exit code is the shell's 128 + the signal's number.
    const exited = new Promise<number>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? 128 + constants.signals[signal!])),
    );
    await waitFor(
      () => existsSync(trace) && readFileSync(trace, 'utf8').includes('item.started'),
      30_000,
      'the tool call in the trace',
    );
    child.kill('SIGTERM');
    const code = await exited;
    assert.ok(readFileSync(trace, 'utf8').includes('"type":"signal"'), 'the stop is recorded');
    const replayedDb = join(dir, 'replayed.db');
    assert.equal(await replayInto(trace, replayedDb), code, 'the replay ends as the stopped run did');
    assert.deepEqual(story(replayedDb, 0), story(database, 0));
  },
);
