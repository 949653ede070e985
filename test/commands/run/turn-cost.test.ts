import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { RunMarkerKeeper, SESSION_WRITE_GAP_MS } from '../../../lib/commands/run/run-marker.ts';
import type { Context } from '../../../lib/commands/shared/command-context.ts';
import { markerPath } from '../../../lib/io/revive/markers.ts';
import type { RunRecords } from '../../../lib/supervise/records/records.ts';
import { OutputTracker } from '../../../lib/supervise/output/output.ts';
import { manyTurnLines, turnsPerRound, type RecordedAgent } from '../../../bench/helpers/recorded-streams.ts';
import { fakeClock, settle, testConfig } from '../../supervise/fakes.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * What a turn costs (issue 36): the recorded Codex and Claude sessions one after another, each
 * its own session and turn, through the output path and the revive marker on a fake clock, as
 * a flood of one line every LINE_MS. The work is counted, not timed (timing is bench/fleet.ts's):
 * twice the turns is exactly twice the sessions, event rows and fingerprints, and the marker is
 * written for a new session at most once a SESSION_WRITE_GAP_MS, however many sessions come —
 * before, every session cost a signed, fsynced marker write.
 */

const LINE_MS = 2;

interface Work {
  turns: number;
  sessions: number;
  eventRows: number;
  fingerprints: number;
  markerWrites: number;
  elapsedMs: number;
}

async function work(t: { after(fn: () => void): void }, agent: RecordedAgent, rounds: number): Promise<Work> {
  const time = fakeClock();
  const dir = tempDir(t);
  const paths = { stateDir: dir, database: join(dir, 'deadman.db'), markerDir: join(dir, 'markers') };
  const context = { config: testConfig(), file: null, chosen: new Set<string>(), refusedJobs: [], paths, clock: time.clock } satisfies Context;
  const keeper = await RunMarkerKeeper.prepare({
    name: 'turns', command: [agent], cwd: dir, config: context.config, context, records: {} as RunRecords, logger: { log: () => {} },
  });
  const marker = () => readFileSync(markerPath(paths.markerDir, 'turns'), 'utf8');
  const counted: Work = { turns: rounds * turnsPerRound(agent), sessions: 0, eventRows: 0, fingerprints: 0, markerWrites: 0, elapsedMs: 0 };
  const adapter = agent === 'codex' ? createCodexAdapter() : createClaudeAdapter();
  const output = new OutputTracker(time.now(), () => adapter, { event: () => void counted.eventRows++ }, {
    onSession: (id) => {
      counted.sessions++;
      keeper.sessionStarted(id, { log: () => {} });
    },
    workspace: () => {
      counted.fingerprints++;
      return null;
    },
  });
  let last = marker();
  for (const text of manyTurnLines(agent, rounds)) {
    time.advance(LINE_MS);
    output.line('stdout', { text, truncated: false }, time.now());
    // A write waits for the clock; each one changes the marker's updatedAt, so no two look alike.
    await settle();
    if (marker() !== last) [last, counted.markerWrites] = [marker(), counted.markerWrites + 1];
  }
  counted.elapsedMs = time.now();
  keeper.finish({ clean: true, outcome: 'completed', reason: 'exit 0', reraise: null }, false);
  return counted;
}

for (const agent of ['codex', 'claude'] as const) {
  test(`${agent}: twice the recorded turns cost exactly twice the work, and the marker a write a second at most`, async (t) => {
    const [once, twice] = [await work(t, agent, 4), await work(t, agent, 8)];
    assert.ok(once.sessions >= once.turns / 2, `sessions seen: ${JSON.stringify(once)}`);
    for (const key of ['sessions', 'eventRows', 'fingerprints'] as const) {
      assert.equal(twice[key], 2 * once[key], `${key}: ${once[key]} for ${once.turns} turns, ${twice[key]} for ${twice.turns}`);
    }
    for (const counted of [once, twice]) {
      const bound = 1 + Math.ceil(counted.elapsedMs / SESSION_WRITE_GAP_MS);
      assert.ok(counted.markerWrites <= bound, `${counted.markerWrites} marker writes for ${counted.sessions} sessions in ${counted.elapsedMs} ms (at most ${bound})`);
    }
  });
}
