import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cpuTimeToTicks,
  parseLsofPids,
  parsePsLine,
  parsePsOutput,
  taggedInPsListing,
} from '../../../lib/core/process/ps-darwin.ts';
import { repoRoot } from '../../helpers/cli.ts';

// The fixture is hand-made in the shape of macOS ps output; it was not captured on a Mac.
const fixture = readFileSync(join(repoRoot, 'test/fixtures/ps-darwin.txt'), 'utf8');
const epochSeconds = (...parts: [number, number, number, number, number, number]) =>
  new Date(...parts).getTime() / 1000;

test('parses macOS ps rows, skipping the comment, truncated and malformed lines', () => {
  const rows = parsePsOutput(fixture);
  assert.deepEqual(
    rows.map((r) => r.pid),
    [1, 345, 4100, 4200, 4201, 4300, 4400],
  );
  const sleep = rows.find((r) => r.pid === 4201)!;
  assert.deepEqual(sleep, {
    pid: 4201,
    ppid: 4200,
    pgid: 4200,
    sid: 4200,
    startTime: epochSeconds(2026, 11, 1, 8, 40, 2),
    state: 'S',
    comm: 'sleep',
    cmdline: ['sleep', '600'],
    cpuTicks: 0,
    ioBytes: null,
    listening: false,
  });
  const bash = rows.find((r) => r.pid === 4200)!;
  assert.equal(bash.comm, 'bash');
  assert.equal(
    bash.cmdline.join(' '),
    `/bin/bash -c python3 -c 'import subprocess; raise SystemExit(subprocess.Popen(["sleep","600"]).wait())'`,
  );
  assert.equal(rows.find((r) => r.pid === 4300)!.state, 'Z');
  assert.equal(rows.find((r) => r.pid === 4400)!.state, 'R');
  assert.equal(rows.find((r) => r.pid === 345)!.cpuTicks, (((1 * 24 + 2) * 60 + 3) * 60 + 4) * 100);
  assert.equal(rows.find((r) => r.pid === 1)!.startTime, epochSeconds(2026, 10, 30, 7, 12, 3));
});

test('converts ps cpu times to ticks at 100/s', () => {
  const cases: Array<[string, number | null]> = [
    ['0:01.23', 123],
    ['12:34.56', 75456],
    ['1:02:03', 372300],
    ['1-02:03:04', 9378400],
    ['00:00:00', 0],
    ['1:02:03.45', 372345],
    ['', null],
    ['1.5', null],
    ['a:bc', null],
    ['-1:00', null],
  ];
  for (const [text, ticks] of cases) assert.equal(cpuTimeToTicks(text), ticks, text);
});

test('refuses garbage and huge lines', () => {
  for (const line of [
    '',
    '   ',
    '\u0000\u0001',
    'x'.repeat(1_000_000),
    '12 34 56 Tue Dec 32 08:39:28 2026 0:00.00 S x',
    '1 0 1 Tue Dec  1 25:39:28 2026 0:00.00 S x',
  ]) {
    assert.equal(parsePsLine(line), null, line.slice(0, 40));
  }
});

test('reads pids from lsof -F p output', () => {
  assert.deepEqual(parseLsofPids('p123\nf5\np456\n\nq7\npabc\n'), [123, 456]);
});

test('the environment listing gives the tagged processes of our uid started since the root, and only them', () => {
  // Hand-made in the shape of macOS `ps -E` output; it was not captured on a Mac.
  const listing = readFileSync(join(repoRoot, 'test/fixtures/ps-darwin-env.txt'), 'utf8');
  const needle = 'DEADMAN_RUN_TAG=5f0c2a9e8d7b4c3a1f6e0d9c8b7a6f5e';
  const rootStart = epochSeconds(2026, 11, 1, 8, 39, 28);
  const seeds = taggedInPsListing(listing, needle, 501, rootStart);
  assert.deepEqual(seeds, [
    { pid: 4100, startTime: rootStart },
    { pid: 4700, startTime: rootStart },
    { pid: 4705, startTime: rootStart + 2 },
  ]);
  assert.deepEqual(
    taggedInPsListing(listing, needle, 502, rootStart).map((s) => s.pid),
    [4702],
    'another uid sees its own',
  );
  assert.deepEqual(taggedInPsListing(listing, 'DEADMAN_RUN_TAG=ffff', 501, rootStart), []);
});
