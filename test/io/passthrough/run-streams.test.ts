import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapter } from '../../../lib/core/adapters/index.ts';
import type { Line } from '../../../lib/core/adapters/lines.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { passThrough } from '../../../lib/io/output/passthrough.ts';
import { OutputTracker } from '../../../lib/supervise/output/output.ts';
import { RunRecords } from '../../../lib/supervise/records/records.ts';
import { feedStreams } from '../../../lib/supervise/output/run-streams.ts';
import { tempDir } from '../../helpers/cli.ts';
import { testConfig } from '../../supervise/fakes.ts';
import type { HeapPort } from '../../../lib/supervise/ports.ts';
import { FLOOD_GROWTH_BYTES } from '../../../lib/supervise/output/flood-collection.ts';

/**
 * The end of the output must survive whatever kept deadman's event loop busy when the child
 * exited: the quiet-pipe wait that stops waiting for leftovers holding the pipes is only ever
 * allowed to give up on a pipe nobody writes to. Real child, real pipes, real passthrough into a
 * file; the bytes are compared by sha256.
 */

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function blockLoopFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the loop is busy elsewhere (a slow parse, a long tick on a loaded host)
  }
}

/** Runs `script` under feedStreams with the codex adapter; returns what reached "deadman's stdout". */
async function passedThrough(
  t: { after(fn: () => void): void },
  script: string,
  onLine: (line: Line) => void,
  onExit: () => void = () => {},
  heap?: HeapPort,
): Promise<Buffer> {
  const dir = tempDir(t);
  const file = join(dir, 'stdout');
  const out = openSync(file, 'w');
  const err = openSync(join(dir, 'stderr'), 'w');
  const adapter = await createAdapter('codex');
  const records = new RunRecords(null, () => 0);
  const output = new OutputTracker(0, () => adapter, records, { onSession: () => {} });
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const logger = { log: () => {} };
  const streams = feedStreams(
    child as typeof child & { pid: number },
    testConfig(),
    {
      clock: systemClock,
      adapter: () => adapter,
      logger,
      records,
      forward: (source, fd, onChunk, onUndeliverable) =>
        passThrough(source, fd === 1 ? out : err, (chunk) => onChunk(chunk, systemClock.monotonic()), onUndeliverable),
      ...(heap ? { heap } : {}),
    },
    output,
    (line) => onLine(line),
  );
  await exited;
  onExit();
  await streams.finished();
  closeSync(out);
  closeSync(err);
  return readFileSync(file);
}

test('a parse slower than the quiet-pipe wait does not make a flowing pipe look quiet (the end of the output was cut)', async (t) => {
  const chunk = 'x\n'.repeat(10_000);
  let lines = 0;
  const got = await passedThrough(t, `(for i in 1 2 3; do printf '${chunk}'; sleep 0.8; done) & exit 0`, () => {
    if (lines++ % 10_000 === 0) blockLoopFor(600);
  });
  assert.equal(got.length, 3 * chunk.length);
  assert.equal(sha256(got), sha256(chunk.repeat(3)));
});

test('a loop blocked past the quiet-pipe wait after the root exited still reads what a leftover wrote meanwhile', async (t) => {
  const expected = 'y'.repeat(100_000);
  const got = await passedThrough(
    t,
    `(sleep 0.3; head -c 100000 /dev/zero | tr '\\0' y) & exit 0`,
    () => {},
    () => {
      // Blocked in the check phase, like work finishing an I/O callback: the timers run next, before any poll.
      setTimeout(() => setImmediate(() => blockLoopFor(700)), 50);
    },
  );
  assert.equal(got.length, expected.length);
  assert.equal(sha256(got), sha256(expected));
});

test("adapter auto: the lines behind the first wait for the sniffed adapter to load, so a wrapped agent's first events are not read as generic lines", async (t) => {
  const dir = tempDir(t);
  const out = openSync(join(dir, 'stdout'), 'w');
  const generic = await createAdapter('generic');
  let adapter = generic;
  const records = new RunRecords(null, () => 0);
  const output = new OutputTracker(0, () => adapter, records, { onSession: () => {} });
  const events = [
    { type: 'thread.started', thread_id: '01a23013-27f3-73e2-b3cb-86b68ffb84d0' },
    { type: 'turn.started' },
    { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n');
  // One write: all three lines arrive in one chunk, before the (dynamically imported) adapter is there.
  const child = spawn('printf', ['%s\n', events], { stdio: ['ignore', 'pipe', 'pipe'] });
  const streams = feedStreams(
    child as typeof child & { pid: number },
    testConfig(),
    {
      clock: systemClock,
      adapter: () => adapter,
      logger: { log: () => {} },
      records,
      forward: (source, _fd, onChunk, onUndeliverable) =>
        passThrough(source, out, (chunk) => onChunk(chunk, systemClock.monotonic()), onUndeliverable),
      sniff: async () => {
        const codex = await createAdapter('codex');
        await new Promise((resolve) => setImmediate(resolve));
        adapter = codex;
        return true;
      },
    },
    output,
    () => {},
  );
  await new Promise((resolve) => child.once('exit', resolve));
  await streams.finished();
  closeSync(out);
  assert.equal(output.state.sessionId, '01a23013-27f3-73e2-b3cb-86b68ffb84d0');
  assert.equal(output.state.completed, true, 'turn.completed was read by the codex adapter');
});

test('a flood that grows the heap gets one full collection, asked for after a slice of parsing, not one per slice', async (t) => {
  let used = 0;
  let collections = 0;
  // Every look finds the heap grown by the bound, as a flood without V8's own collections would.
  const heap = { usedBytes: () => (used += FLOOD_GROWTH_BYTES), collect: () => void collections++, compact: () => {} };
  const line = JSON.stringify({
    type: 'item.completed',
    item: { id: 'item_1', type: 'agent_message', text: 'x'.repeat(200) },
  });
  let lines = 0;
  await passedThrough(
    t,
    `yes '${line}' | head -n 20000`,
    () => lines++,
    () => {},
    heap,
  );
  assert.equal(lines, 20_000);
  assert.ok(used > 2 * FLOOD_GROWTH_BYTES, 'the heap was looked at after each slice');
  assert.equal(collections, 1, 'spaced: one collection in a short flood');
});
