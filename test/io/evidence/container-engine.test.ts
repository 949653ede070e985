import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXEC_TIMEOUT_MS, reachContainer } from '../../../lib/io/evidence/container-engine.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * Reaching a container through engines that are small scripts, alone on PATH (the real podman is
 * test/commands/check-container.test.ts): which engine is asked, and the one line for each way a
 * container cannot be read. Never alive: every failure is an `unreachable` line.
 */

function onlyOnPath(t: { after(fn: () => void): void }, scripts: Record<string, string>): void {
  const dir = tempDir(t);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  const saved = process.env.PATH;
  process.env.PATH = dir;
  t.after(() => (process.env.PATH = saved));
}

/** An engine whose `exec … date` prints `date`, and whose inspect says `status` (or fails with `missing`). */
function engine(date: string, inspect: string): string {
  return `case "$1" in exec) ${date} ;; container) ${inspect} ;; esac`;
}

test('no engine on PATH: unknown, naming both', async (t) => {
  onlyOnPath(t, {});
  assert.deepEqual(await reachContainer('app', undefined), {
    unreachable: 'container app cannot be reached: podman: not on PATH; docker: not on PATH',
  });
});

test('podman first; an engine that does not know the container sends the search on to docker', async (t) => {
  onlyOnPath(t, {
    podman: engine(
      'echo "Error: no such container app" >&2; exit 125',
      'echo "Error: no such container app" >&2; exit 125',
    ),
    docker: engine('echo "1796606542 +0530"', 'echo running'),
  });
  const reached = await reachContainer('app', undefined);
  assert.ok('clock' in reached, JSON.stringify(reached));
  assert.deepEqual(reached.clock, { epochMs: 1796606542000, utcOffsetMinutes: 330 });
  // Configured, podman is the only one asked.
  assert.deepEqual(await reachContainer('app', 'podman'), {
    unreachable: 'container app cannot be reached: podman: Error: no such container app',
  });
});

test('a container that is not running, or whose clock cannot be read, is unreachable with one line', async (t) => {
  onlyOnPath(t, {
    podman: engine('echo "Error: container state improper" >&2; exit 125', 'echo exited'),
    docker: engine('echo "not a date"', 'echo running'),
  });
  assert.deepEqual(await reachContainer('app', 'podman'), {
    unreachable: 'container app is exited (podman), not running: its files cannot be read',
  });
  assert.deepEqual(await reachContainer('app', 'docker'), {
    unreachable: 'container app (docker): cannot read its clock: date printed "not a date"',
  });
});

test('an exec that hangs is stopped after the exec timeout', { timeout: EXEC_TIMEOUT_MS + 30_000 }, async (t) => {
  onlyOnPath(t, { podman: engine('exec /bin/sleep 600', 'echo running') });
  const started = performance.now();
  const reached = await reachContainer('app', 'podman');
  assert.match(
    (reached as { unreachable: string }).unreachable,
    /^container app \(podman\): cannot read its clock: date timed out after 1\ds/,
  );
  assert.ok(performance.now() - started < EXEC_TIMEOUT_MS + 15_000);
});
