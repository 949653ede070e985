import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFaultReporter } from '../../../lib/io/log/fault-reporter.ts';

/** The fault reporter with a hand-set state of the state directory and the lines it says. */
function reporter() {
  const lines: string[] = [];
  const dir = { problem: null as string | null };
  return {
    lines,
    dir,
    faults: createFaultReporter(
      (line) => lines.push(line),
      '/state',
      () => dir.problem,
    ),
  };
}

test('every duty failing inside an unwritable state directory: the cause once, in one line', () => {
  const { lines, dir, faults } = reporter();
  dir.problem =
    'state directory /state cannot be written (EACCES): not recording, no revive marker, health reports unhealthy; the work goes on';
  faults.fault('recording', '/state/deadman.db', 'not recording anything: EACCES');
  faults.fault('revive marker', '/state/markers', 'could not take the marker lock');
  faults.fault('revive marker', '/state/markers', 'could not write the revive marker');
  faults.fault('health file', '/state/health/x.json', 'cannot refresh the health file');
  assert.deepEqual(lines, [dir.problem]);
});

test('a fault of its own is said in its own line, once, and again only when it changes', () => {
  const { lines, faults } = reporter();
  faults.fault('recording', '/elsewhere/deadman.db', 'not recording: disk full');
  faults.fault('recording', '/elsewhere/deadman.db', 'not recording: disk full');
  faults.fault('health file', '/state/health/x.json', 'cannot refresh the health file (ENOSPC)');
  faults.fault('recording', '/elsewhere/deadman.db', 'not recording: read-only');
  assert.deepEqual(lines, [
    'not recording: disk full',
    'cannot refresh the health file (ENOSPC)',
    'not recording: read-only',
  ]);
});

test('a duty that worked again says its next failure again', () => {
  const { lines, faults } = reporter();
  faults.fault('recording', '/x/deadman.db', 'not recording: locked');
  faults.cleared('recording');
  faults.fault('recording', '/x/deadman.db', 'not recording: locked');
  assert.equal(lines.length, 2);
});
