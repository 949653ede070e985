import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { RunMarkerKeeper, SESSION_WRITE_GAP_MS } from '../../../lib/commands/run/run-marker.ts';
import type { Context } from '../../../lib/commands/shared/command-context.ts';
import { markerPath } from '../../../lib/io/revive/markers.ts';
import { RunRecords } from '../../../lib/supervise/records/records.ts';
import { EVENT_BATCH_DEFAULTS } from '../../../lib/supervise/records/event-batch.ts';
import { RecordingStore } from '../../../lib/io/store/recording-store.ts';
import { Store } from '../../../lib/io/store/store.ts';
import { sessionSeen } from '../../../lib/commands/run/pass-ports.ts';
import { OutputTracker } from '../../../lib/supervise/output/output.ts';
import { manyTurnLines, turnsPerRound, type RecordedAgent } from '../../../bench/helpers/recorded-streams.ts';
import { fakeClock, settle, testConfig } from '../../supervise/fakes.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * What a turn costs (issue 36): the recorded Codex and Claude sessions one after another, each
 * its own session and turn, through the output path, the run's records (a real database) and
 * the revive marker on a fake clock, as a flood of one line every LINE_MS. The work is counted,
 * not timed (timing is bench/fleet.ts's): twice the turns is exactly twice the sessions, event
 * rows and fingerprints; the marker is written for a new session at most once a
 * SESSION_WRITE_GAP_MS and the database once a batch (flushMs), however many sessions come —
 * before, every session cost a signed, fsynced marker write and an UPDATE of the run's row.
 */

const LINE_MS = 2;

interface Work {
  turns: number;
  sessions: number;
  eventRows: number;
  fingerprints: number;
  markerWrites: number;
  storeWrites: number;
  elapsedMs: number;
}

async function work(t: { after(fn: () => void): void }, agent: RecordedAgent, rounds: number): Promise<Work> {
  const time = fakeClock();
  const dir = tempDir(t);
  const paths = { stateDir: dir, database: join(dir, 'deadman.db'), markerDir: join(dir, 'markers') };
  const context = {
    config: testConfig(),
    file: null,
    chosen: new Set<string>(),
    refusedJobs: [],
    paths,
    clock: time.clock,
  } satisfies Context;
  const counted: Work = {
    turns: rounds * turnsPerRound(agent),
    sessions: 0,
    eventRows: 0,
    fingerprints: 0,
    markerWrites: 0,
    storeWrites: 0,
    elapsedMs: 0,
  };
  const sink = new RecordingStore({
    path: paths.database,
    open: () => new Store(paths.database),
    logger: { log: () => {} },
    wall: time.clock.wall,
    monotonic: time.clock.monotonic,
  });
  const write = sink.write.bind(sink);
  sink.write = (what, work) => (counted.storeWrites++, write(what, work));
  t.after(() => sink.close());
  const records = new RunRecords(sink, time.clock.wall, {
    ...EVENT_BATCH_DEFAULTS,
    schedule: (flush, ms) => void time.clock.sleep(ms).then(flush),
  });
  records.startRun({
    name: 'turns',
    argv: [agent],
    cwd: dir,
    unit: null,
    invocationId: null,
    pid: process.pid,
    pidStartTime: null,
    token: 'token',
    adapter: agent,
    reviveOf: null,
  });
  const keeper = await RunMarkerKeeper.prepare({
    name: 'turns',
    command: [agent],
    cwd: dir,
    config: context.config,
    context,
    records: {} as RunRecords,
    logger: { log: () => {} },
  });
  const marker = () => readFileSync(markerPath(paths.markerDir, 'turns'), 'utf8');
  const adapter = agent === 'codex' ? createCodexAdapter() : createClaudeAdapter();
  const onSession = sessionSeen(records, keeper, () => agent, { log: () => {} });
  const output = new OutputTracker(
    time.now(),
    () => adapter,
    { event: (...args) => void (counted.eventRows++, records.event(...args)) },
    {
      onSession: (id) => {
        counted.sessions++;
        onSession(id);
      },
      workspace: () => {
        counted.fingerprints++;
        return null;
      },
    },
  );
  let last = marker();
  for (const text of manyTurnLines(agent, rounds)) {
    time.advance(LINE_MS);
    output.line('stdout', { text, truncated: false }, time.now());
    // A write waits for the clock; each one changes the marker's updatedAt, so no two look alike.
    await settle();
    if (marker() !== last) [last, counted.markerWrites] = [marker(), counted.markerWrites + 1];
  }
  counted.elapsedMs = time.now();
  records.finishRun({ exitCode: 0, signal: null, outcome: 'completed', reason: 'exit 0' });
  keeper.finish({ clean: true, outcome: 'completed', reason: 'exit 0', reraise: null }, false);
  return counted;
}

for (const agent of ['codex', 'claude'] as const) {
  test(`${agent}: twice the recorded turns cost exactly twice the work, the marker a write a second and the database one a batch`, async (t) => {
    const [once, twice] = [await work(t, agent, 4), await work(t, agent, 8)];
    assert.ok(once.sessions >= once.turns / 2, `sessions seen: ${JSON.stringify(once)}`);
    for (const key of ['sessions', 'eventRows', 'fingerprints'] as const) {
      assert.equal(
        twice[key],
        2 * once[key],
        `${key}: ${once[key]} for ${once.turns} turns, ${twice[key]} for ${twice.turns}`,
      );
    }
    for (const counted of [once, twice]) {
      const bound = 1 + Math.ceil(counted.elapsedMs / SESSION_WRITE_GAP_MS);
      assert.ok(
        counted.markerWrites <= bound,
        `${counted.markerWrites} marker writes for ${counted.sessions} sessions in ${counted.elapsedMs} ms (at most ${bound})`,
      );
      // The run's row at its start, one write a batch, and its end.
      const batches = 2 + Math.ceil(counted.elapsedMs / EVENT_BATCH_DEFAULTS.flushMs);
      assert.ok(
        counted.storeWrites <= batches,
        `${counted.storeWrites} database writes for ${counted.sessions} sessions in ${counted.elapsedMs} ms (at most ${batches})`,
      );
    }
  });
}
