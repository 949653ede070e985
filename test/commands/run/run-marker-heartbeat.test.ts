import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunMarkerKeeper } from '../../../lib/commands/run/run-marker.ts';
import type { Context } from '../../../lib/commands/shared/command-context.ts';
import { markerPath } from '../../../lib/io/revive/markers.ts';
import type { RunRecords } from '../../../lib/supervise/records/records.ts';
import { fakeClock, settle, testConfig } from '../../supervise/fakes.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * The revive marker's heartbeat runs on the command's clock: a marker is touched once every
 * minute while its run goes (so `deadman revive` can tell a live run from a stale marker), and
 * never again once the run ended. Under a fake clock nothing moves unless the test moves it.
 */

const MINUTE = 60_000;

test("the marker is touched every minute of the run's clock, and not after the run ended", async (t) => {
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
  const keeper = await RunMarkerKeeper.prepare({
    name: 'beat',
    command: ['/bin/true'],
    cwd: dir,
    config: context.config,
    context,
    records: {} as RunRecords,
    logger: { log: () => {} },
  });
  const touchedAt = () =>
    (JSON.parse(readFileSync(markerPath(paths.markerDir, 'beat'), 'utf8')) as { updatedAt: number }).updatedAt;
  const started = touchedAt();
  assert.equal(started, time.clock.wall(), "written at the start, on the command's clock");

  time.advance(MINUTE - 1);
  await settle();
  assert.equal(touchedAt(), started, 'not before the minute is up');
  time.advance(1);
  await settle();
  assert.equal(touchedAt(), started + MINUTE);
  time.advance(MINUTE);
  await settle();
  assert.equal(touchedAt(), started + 2 * MINUTE);

  keeper.finish({ clean: true, outcome: 'completed', reason: 'exit 0', reraise: null }, false);
  const ended = readFileSync(markerPath(paths.markerDir, 'beat'), 'utf8');
  time.advance(3 * MINUTE);
  await settle();
  assert.equal(
    readFileSync(markerPath(paths.markerDir, 'beat'), 'utf8'),
    ended,
    "the ended run's marker is left as it ended",
  );
});
