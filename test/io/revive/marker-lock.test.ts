import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockMarkers } from '../../../lib/io/revive/marker-lock.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { tempDir } from '../../helpers/cli.ts';

test('one holder at a time; released, it can be taken again', async (t) => {
  const dir = tempDir(t);
  const release = await lockMarkers(dir, 100, systemClock);
  assert.ok(release);
  const started = performance.now();
  assert.equal(await lockMarkers(dir, 200, systemClock), null, 'held by a live process');
  assert.ok(performance.now() - started >= 190, 'waited for it');
  release();
  assert.equal(existsSync(join(dir, '.revive.lock')), false);
  const again = await lockMarkers(dir, 100, systemClock);
  assert.ok(again);
  again();
});

test('a lock left by a dead process, or half-written long ago, is broken; a fresh unreadable one is waited for', async (t) => {
  const dir = tempDir(t);
  const lock = join(dir, '.revive.lock');
  const dead = spawnSync('true').pid!;
  writeFileSync(lock, JSON.stringify({ pid: dead, startTime: 1 }));
  const first = await lockMarkers(dir, 100, systemClock);
  assert.ok(first, 'dead owner');
  first();
  writeFileSync(lock, '{"pid":');
  assert.equal(await lockMarkers(dir, 150, systemClock), null, 'just written: maybe still being written');
  utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const second = await lockMarkers(dir, 100, systemClock);
  assert.ok(second, 'cut by a crash long ago');
  second();
});

test('in a directory others can write nothing is written, not even the lock', async (t) => {
  const markers = join(tempDir(t), 'markers');
  mkdirSync(markers);
  chmodSync(markers, 0o777);
  const release = await lockMarkers(markers, 100, systemClock);
  assert.ok(release);
  assert.deepEqual(readdirSync(markers), [], 'no lock file while held');
  release();
  chmodSync(markers, 0o700);
  const held = await lockMarkers(markers, 100, systemClock);
  assert.ok(held && existsSync(join(markers, '.revive.lock')), 'a trusted directory gets its lock');
  held();
});
