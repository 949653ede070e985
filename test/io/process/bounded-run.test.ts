import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBounded } from '../../../lib/io/process/bounded-run.ts';
import { tempDir, waitFor } from '../../helpers/cli.ts';
import { isRunning } from '../../helpers/process-tree.ts';
import { measureHostDelay } from '../../helpers/host-delay.ts';

test('captures output and the exit code of an argv run without a shell', async () => {
  const outcome = await runBounded({ argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeoutMs: 5000 });
  assert.deepEqual(outcome, { kind: 'exited', code: 3, stdout: 'out\n', stderr: 'err\n' });
  const literal = await runBounded({ argv: ['echo', '$HOME', '; rm -rf /'], timeoutMs: 5000 });
  assert.deepEqual(literal, { kind: 'exited', code: 0, stdout: '$HOME ; rm -rf /\n', stderr: '' });
});

test('a timeout stops the whole process group, grandchildren included', async (t) => {
  const dir = tempDir(t);
  const pidFile = join(dir, 'grandchild');
  const host = measureHostDelay();
  const started = performance.now();
  const outcome = await runBounded({
    argv: ['sh', '-c', `sleep 30 & echo $! > ${pidFile}; trap '' TERM; sleep 30`],
    timeoutMs: 300,
    killGraceMs: 200,
  });
  assert.equal(outcome.kind, 'timed-out');
  assert.ok(performance.now() - started < host.scaled(3000), 'returned soon after the timeout');
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  await waitFor(() => !isRunning(grandchild), 3000, 'the grandchild to be killed');
});

test('a background process holding the pipes does not hold the result', async (t) => {
  const dir = tempDir(t);
  const pidFile = join(dir, 'bg');
  t.after(() => {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      /* gone */
    }
  });
  const host = measureHostDelay();
  const started = performance.now();
  const outcome = await runBounded({
    argv: ['sh', '-c', `sleep 30 & echo $! > ${pidFile}; echo ok`],
    timeoutMs: 10_000,
  });
  assert.deepEqual(outcome, { kind: 'exited', code: 0, stdout: 'ok\n', stderr: '' });
  assert.ok(performance.now() - started < host.scaled(3000));
});

test('huge output keeps its first and last part only', async () => {
  const outcome = await runBounded({
    argv: ['sh', '-c', 'echo FIRST; head -c 5000000 /dev/zero | tr "\\0" x; echo; echo LAST'],
    timeoutMs: 10_000,
    maxOutputBytes: 1000,
  });
  assert.equal(outcome.kind, 'exited');
  if (outcome.kind !== 'exited') return;
  assert.ok(outcome.stdout.startsWith('FIRST\n'));
  assert.ok(outcome.stdout.endsWith('LAST\n'));
  assert.match(outcome.stdout, /\[… 49\d{5} bytes omitted …\]/);
  assert.ok(outcome.stdout.length < 1100);
});

test('a program that cannot start is reported, not thrown', async (t) => {
  assert.deepEqual(await runBounded({ argv: ['/nonexistent/program'], timeoutMs: 1000 }), {
    kind: 'not-started',
    error: 'command not found',
  });
  assert.deepEqual(await runBounded({ argv: [], timeoutMs: 1000 }), { kind: 'not-started', error: 'empty command' });
  const dir = tempDir(t);
  assert.deepEqual(await runBounded({ argv: ['true'], cwd: join(dir, 'gone'), timeoutMs: 1000 }), {
    kind: 'not-started',
    error: `working directory ${join(dir, 'gone')} does not exist`,
  });
  const signaled = await runBounded({ argv: ['sh', '-c', 'kill -SEGV $$'], timeoutMs: 5000 });
  assert.equal(signaled.kind, 'signaled');
});
