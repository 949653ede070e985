import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkDocument,
  displayArgv,
  jobBlock,
  rerunLine,
  rerunResult,
} from '../../../lib/core/evidence/check-report.ts';
import { summarize, type JobVerdict } from '../../../lib/core/evidence/evidence.ts';

const dead: JobVerdict = {
  job: 'nightly-export',
  verdict: 'dead',
  claims: [
    { claim: 'export', kind: 'file', verdict: 'dead', reason: 'export-2026-09-10.csv is 0 bytes' },
    { claim: 'api', kind: 'http', verdict: 'alive', reason: 'GET http://127.0.0.1/ returned 200' },
    { claim: 'rows', kind: 'command', verdict: 'unknown', reason: 'psql timed out after 30s' },
  ],
};

test('a dead job prints its failing reasons and its fix', () => {
  assert.deepEqual(jobBlock(dead, ['/bin/nightly-export']), [
    'DEAD   nightly-export',
    '       export-2026-09-10.csv is 0 bytes',
    '       psql timed out after 30s',
    '       fix: /bin/nightly-export   (needs approval)',
  ]);
  assert.deepEqual(jobBlock(dead, null).at(-1), '       psql timed out after 30s');
});

test('an unknown job offers no fix; a healthy job is one quiet line', () => {
  const unknown: JobVerdict = { job: 'api', verdict: 'unknown', claims: [dead.claims[2]!] };
  assert.deepEqual(jobBlock(unknown, ['/bin/x']), ['UNKNOWN api', '       psql timed out after 30s']);
  assert.deepEqual(jobBlock({ job: 'ok', verdict: 'alive', claims: [dead.claims[1]!] }, ['/bin/x']), ['alive  ok']);
});

test('reruns are described in one line and one word', () => {
  assert.equal(rerunLine({ kind: 'exited', code: 0, stdout: '', stderr: '' }, 3200), '       rerun exited 0 after 3s');
  assert.equal(
    rerunLine({ kind: 'timed-out', afterMs: 600_000, stdout: '', stderr: '' }, 600_100),
    '       rerun timed out after 10min and was stopped',
  );
  assert.equal(
    rerunLine({ kind: 'signaled', signal: 'SIGKILL', stdout: '', stderr: '' }, 10),
    '       rerun was killed by SIGKILL after 10ms',
  );
  assert.equal(
    rerunLine({ kind: 'not-started', error: 'command not found' }, 1),
    '       rerun could not start: command not found',
  );
  assert.equal(rerunResult({ kind: 'exited', code: 3, stdout: '', stderr: '' }), 'exit 3');
  assert.equal(rerunResult({ kind: 'timed-out', afterMs: 1, stdout: '', stderr: '' }), 'timed-out');
});

test('argv is shown as a person would type it', () => {
  assert.equal(displayArgv(['/bin/nightly-export', '--day=2026-09-10']), '/bin/nightly-export --day=2026-09-10');
  assert.equal(displayArgv(['sh', '-c', 'echo a > /tmp/x']), "sh -c 'echo a > /tmp/x'");
  assert.equal(displayArgv(['echo', "it's", '']), "echo 'it'\\''s' ''");
});

test('the JSON document holds the summary, every job, its claims and rerun', () => {
  const ok: JobVerdict = { job: 'ok', verdict: 'alive', claims: [dead.claims[1]!] };
  const doc = checkDocument([dead, ok], summarize([dead, ok]), { 'nightly-export': ['/bin/nightly-export'] });
  assert.deepEqual(doc.summary, { checked: 2, dead: 1, unknown: 0, alive: 1, refused: 0, needs_attention: true });
  assert.deepEqual(
    doc.jobs.map((j) => [j.job, j.verdict, j.rerun, j.claims.length]),
    [
      ['nightly-export', 'dead', ['/bin/nightly-export'], 3],
      ['ok', 'alive', null, 1],
    ],
  );
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
});
