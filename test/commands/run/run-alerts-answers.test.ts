import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerFlags } from '../../../lib/commands/run/run-alerts.ts';
import { statePaths, type PathContext } from '../../../lib/io/files/paths.ts';

/** What `deadman approve ID` needs, typed in a person's shell, to find the run's state: only the paths that are not their defaults. */
const person: PathContext = {
  env: { STATE_DIRECTORY: '/home/ann/.local/state/deadman' },
  isRoot: false,
  platform: 'linux',
  home: '/home/ann',
};

test("the answer commands name --state-dir and --database only where the run's differ from what a shell would use", () => {
  assert.deepEqual(
    answerFlags(statePaths('/home/ann/.local/state/deadman'), person),
    [],
    "a user unit's StateDirectory= is the default anyway",
  );
  assert.deepEqual(
    answerFlags(statePaths('/srv/jobs'), { ...person, env: { STATE_DIRECTORY: '/srv/jobs' } }),
    ['--state-dir', '/srv/jobs'],
    "a unit's $STATE_DIRECTORY is not in the shell",
  );
  assert.deepEqual(answerFlags(statePaths('/home/ann/.local/state/deadman', '/data/review.db'), person), [
    '--database',
    '/data/review.db',
  ]);
  assert.deepEqual(answerFlags(statePaths('/srv/jobs', '/data/review.db', true), person), [
    '--state-dir',
    '/srv/jobs',
    '--database',
    '/data/review.db',
  ]);
  assert.deepEqual(
    answerFlags(statePaths('/var/lib/deadman'), { ...person, isRoot: true, home: '/root' }),
    [],
    "root's default",
  );
});
