import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandClaimSchema, fileClaimSchema, httpClaimSchema } from '../../../lib/core/config/config.ts';
import {
  chooseEvidence,
  claimName,
  combinedState,
  countLines,
  judgeFile,
  summarize,
  type Candidate,
  type Verdict,
  type VerdictState,
} from '../../../lib/core/evidence/evidence.ts';
import {
  judgeCommand,
  judgeHttp,
  statusRange,
  type CommandOutcome,
} from '../../../lib/core/evidence/probe-verdicts.ts';

const NOW = Date.UTC(2026, 8, 10, 12, 0, 0);
const HOUR = 3_600_000;
const ROOT = '/out/export';

/** Paths outside the root are refused by the schema; the judge must still refuse them, so they are set past it. */
const fileClaim = (extra: Record<string, unknown> = {}) => {
  const { path, ...rest } = extra;
  const claim = fileClaimSchema.parse({
    kind: 'file',
    root: ROOT,
    glob: `${ROOT}/*.csv`,
    ...rest,
    ...(path === undefined ? {} : { path: `${ROOT}/x` }),
  });
  return path === undefined ? claim : { ...claim, path: path as string };
};
const present = (
  name: string,
  size: number,
  mtimeMs: number,
  extra: Partial<Extract<Candidate, { state: 'present' }>> = {},
): Candidate => ({
  path: `${ROOT}/${name}`,
  state: 'present',
  resolved: `${ROOT}/${name}`,
  isFile: true,
  size,
  mtimeMs,
  ...extra,
});

function fileVerdict(
  claimExtra: Record<string, unknown>,
  candidates: Candidate[],
  sample: { head: string; tail: string | null } | null = null,
) {
  const claim = fileClaim(claimExtra);
  const v = judgeFile(claim, 'export', chooseEvidence(claim, candidates, ROOT), sample, NOW);
  return [v.verdict, v.reason] as const;
}

test("file verdicts carry the concrete reason in the issue's words", () => {
  const cases: Array<[string, Record<string, unknown>, Candidate[], VerdictState, string]> = [
    [
      'empty',
      { non_empty: true },
      [present('export-2026-09-10.csv', 0, NOW - HOUR)],
      'dead',
      'export-2026-09-10.csv is 0 bytes',
    ],
    ['empty but allowed', {}, [present('e.csv', 0, NOW - HOUR)], 'alive', 'e.csv: 0 bytes, modified 1 hour ago'],
    [
      'stale',
      { max_age: '6h', glob: undefined, path: `${ROOT}/backup.tar.gz` },
      [present('backup.tar.gz', 10, NOW - 4 * 24 * HOUR - 5)],
      'dead',
      'backup.tar.gz is 4 days stale',
    ],
    [
      'fresh',
      { max_age: '6h' },
      [present('a.csv', 10, NOW - 5 * HOUR)],
      'alive',
      'a.csv: 10 bytes, modified 5 hours ago',
    ],
    [
      'max_age off',
      { max_age: 'off' },
      [present('a.csv', 10, NOW - 400 * 24 * HOUR)],
      'alive',
      'a.csv: 10 bytes, modified 400 days ago',
    ],
    ['no match', { non_empty: true }, [], 'dead', 'no file matches /out/export/*.csv'],
    [
      'missing path',
      { glob: undefined, path: `${ROOT}/x.csv` },
      [{ path: `${ROOT}/x.csv`, state: 'missing' }],
      'dead',
      '/out/export/x.csv does not exist',
    ],
    ['too small', { min_bytes: 100 }, [present('a.csv', 12, NOW)], 'dead', 'a.csv is 12 bytes (expected at least 100)'],
    [
      'future 2h',
      { max_age: '6h' },
      [present('a.csv', 10, NOW + 2 * HOUR)],
      'unknown',
      'a.csv has a modification time 2 hours in the future; check the clocks',
    ],
    [
      'future without max_age',
      {},
      [present('a.csv', 10, NOW + 10 * 60_000)],
      'unknown',
      'a.csv has a modification time 10 minutes in the future; check the clocks',
    ],
    [
      'small skew tolerated',
      { max_age: '6h' },
      [present('a.csv', 10, NOW + 4 * 60_000)],
      'alive',
      'a.csv: 10 bytes, modified just now',
    ],
    [
      'unreadable match',
      {},
      [present('a.csv', 1, NOW), { path: `${ROOT}/b.csv`, state: 'error', error: 'permission denied' }],
      'unknown',
      'cannot inspect /out/export/b.csv: permission denied',
    ],
    [
      'directory at path',
      { glob: undefined, path: `${ROOT}/d` },
      [present('d', 4096, NOW, { isFile: false })],
      'dead',
      '/out/export/d is not a regular file',
    ],
    [
      'directory among matches',
      {},
      [present('d.csv', 4096, NOW, { isFile: false })],
      'dead',
      'no file matches /out/export/*.csv',
    ],
    [
      'escaping symlink',
      {},
      [present('link.csv', 10, NOW, { resolved: '/etc/passwd' })],
      'dead',
      'link.csv resolves to /etc/passwd, outside root /out/export',
    ],
    [
      'sibling prefix path',
      { glob: undefined, path: '/out/export-secrets/k.csv' },
      [present('x', 1, NOW, { path: '/out/export-secrets/k.csv', resolved: '/out/export-secrets/k.csv' })],
      'dead',
      '/out/export-secrets/k.csv is outside root /out/export',
    ],
  ];
  for (const [label, extra, candidates, state, reason] of cases) {
    assert.deepEqual(fileVerdict(extra, candidates), [state, reason], label);
  }
});

test('a glob is judged by its newest in-scope regular file', () => {
  const candidates: Candidate[] = [
    present('old.csv', 10, NOW - 30 * HOUR),
    present('newest-but-escapes.csv', 10, NOW - 60_000, { resolved: '/etc/shadow' }),
    present('new.csv', 0, NOW - HOUR),
    present('dir.csv', 4096, NOW, { isFile: false }),
    { path: `${ROOT}/vanished.csv`, state: 'missing' },
  ];
  assert.deepEqual(fileVerdict({ non_empty: true, max_age: '6h' }, candidates), ['dead', 'new.csv is 0 bytes']);
  // Equal mtimes: the choice is still deterministic (the lexically last path).
  const tie = [present('a.csv', 1, NOW), present('b.csv', 0, NOW)];
  assert.deepEqual(fileVerdict({ non_empty: true }, tie), ['dead', 'b.csv is 0 bytes']);
  assert.deepEqual(fileVerdict({ non_empty: true }, tie.reverse()), ['dead', 'b.csv is 0 bytes']);
});

test('min_lines and contains read a bounded sample', () => {
  const file = [present('a.csv', 20, NOW)];
  const whole = (head: string) => ({ head, tail: null });
  assert.deepEqual(fileVerdict({ min_lines: 3 }, file, whole('h\n1\n2')), [
    'alive',
    'a.csv: 20 bytes, modified just now',
  ]);
  assert.deepEqual(fileVerdict({ min_lines: 3 }, file, whole('h\n1\n')), [
    'dead',
    'a.csv has 2 lines (expected at least 3)',
  ]);
  assert.deepEqual(fileVerdict({ min_lines: 1 }, file, whole('')), ['dead', 'a.csv has 0 lines (expected at least 1)']);
  assert.deepEqual(fileVerdict({ min_lines: 5 }, file, { head: 'a\nb\n', tail: 'c\nd\n' }), [
    'unknown',
    'a.csv is too large to count all lines (4 in its first and last 1 MiB; expected at least 5)',
  ]);
  assert.deepEqual(fileVerdict({ contains: '^total,\\d+$' }, file, whole('x\ntotal,42\n'))[0], 'alive');
  assert.deepEqual(fileVerdict({ contains: '^total,\\d+$' }, file, { head: 'x', tail: 'total,7' })[0], 'alive');
  assert.deepEqual(fileVerdict({ contains: 'total' }, file, whole('nothing here')), [
    'dead',
    'a.csv does not contain /total/',
  ]);
  assert.deepEqual(fileVerdict({ contains: 'total' }, file, { head: 'no', tail: 'pe' }), [
    'dead',
    'a.csv does not contain /total/ in its first and last 1 MiB',
  ]);
  // A regex the schema did not see (a claim built in code) is unknown, never a crash or alive.
  const claim = { ...fileClaim(), contains: '(' };
  const v = judgeFile(claim, 'x', chooseEvidence(claim, file, ROOT), whole('('), NOW);
  assert.equal(v.verdict, 'unknown');
  assert.match(v.reason, /^contains \/\(\/ is not a valid regular expression/);
  // Checks that need content but got no sample fail closed.
  assert.equal(fileVerdict({ min_lines: 1 }, file, null)[0], 'unknown');
  assert.equal(fileVerdict({ contains: 'x' }, file, null)[0], 'unknown');
});

test('countLines: exact for a whole file, a floor for head and tail', () => {
  assert.equal(countLines({ head: '', tail: null }), 0);
  assert.equal(countLines({ head: 'a', tail: null }), 1);
  assert.equal(countLines({ head: 'a\n', tail: null }), 1);
  assert.equal(countLines({ head: 'a\nb', tail: null }), 2);
  assert.equal(countLines({ head: '\n\n\n', tail: null }), 3);
  assert.equal(countLines({ head: 'a\nb', tail: 'c\nd' }), 2);
});

test('command verdicts: exit 0 (and stdout regex) holds; a failed check is unknown', () => {
  const claim = (extra: Record<string, unknown> = {}) =>
    commandClaimSchema.parse({ kind: 'command', command: ['/usr/bin/psql', '-tAc', 'select 1'], ...extra });
  const exited = (code: number, stdout = '', stderr = ''): CommandOutcome => ({ kind: 'exited', code, stdout, stderr });
  const cases: Array<[Record<string, unknown>, CommandOutcome, VerdictState, string]> = [
    [{}, exited(0, '1\n'), 'alive', 'psql exited 0'],
    [
      {},
      exited(2, '', 'warning\npsql: error: connection refused\n'),
      'dead',
      'psql exited 2: psql: error: connection refused',
    ],
    [{}, exited(1, 'only stdout\n'), 'dead', 'psql exited 1: only stdout'],
    [{}, exited(1), 'dead', 'psql exited 1'],
    [{ stdout_matches: '^2026-09-10$' }, exited(0, 'x\n2026-09-10\n'), 'alive', 'psql exited 0'],
    [
      { stdout_matches: '^2026-09-10$' },
      exited(0, '2026-09-09\n'),
      'dead',
      'psql output does not match /^2026-09-10$/',
    ],
    [{}, { kind: 'timed-out', afterMs: 30_000, stdout: '', stderr: '' }, 'unknown', 'psql timed out after 30s'],
    [{}, { kind: 'signaled', signal: 'SIGSEGV', stdout: '', stderr: '' }, 'unknown', 'psql was killed by SIGSEGV'],
    [{}, { kind: 'not-started', error: 'command not found' }, 'unknown', 'cannot run /usr/bin/psql: command not found'],
  ];
  for (const [extra, outcome, state, reason] of cases) {
    const v = judgeCommand(claim(extra), 'rows', outcome);
    assert.deepEqual([v.claim, v.kind, v.verdict, v.reason], ['rows', 'command', state, reason], reason);
  }
  const long = judgeCommand(claim(), 'rows', exited(1, '', 'x'.repeat(500)));
  assert.ok(long.reason.length < 230, 'a huge error line is cut');
});

test('http verdicts: status range and body regex', () => {
  const claim = (extra: Record<string, unknown> = {}) =>
    httpClaimSchema.parse({ kind: 'http', url: 'http://127.0.0.1:8080/health', ...extra });
  const cases: Array<[Record<string, unknown>, Parameters<typeof judgeHttp>[2], VerdictState, string]> = [
    [{}, { kind: 'response', status: 200, body: 'ok' }, 'alive', 'GET http://127.0.0.1:8080/health returned 200'],
    [{}, { kind: 'response', status: 299, body: '' }, 'alive', 'GET http://127.0.0.1:8080/health returned 299'],
    [
      {},
      { kind: 'response', status: 500, body: '' },
      'dead',
      'GET http://127.0.0.1:8080/health returned 500 (expected 200-299)',
    ],
    [
      {},
      { kind: 'response', status: 301, body: '' },
      'dead',
      'GET http://127.0.0.1:8080/health returned 301 (expected 200-299)',
    ],
    [
      { status: '503' },
      { kind: 'response', status: 503, body: '' },
      'alive',
      'GET http://127.0.0.1:8080/health returned 503',
    ],
    [
      { body_matches: '"status":\\s*"ok"' },
      { kind: 'response', status: 200, body: '{"status": "ok"}' },
      'alive',
      'GET http://127.0.0.1:8080/health returned 200',
    ],
    [
      { body_matches: '"status":\\s*"ok"' },
      { kind: 'response', status: 200, body: '{"status": "degraded"}' },
      'dead',
      'GET http://127.0.0.1:8080/health returned 200 but its body does not match /"status":\\s*"ok"/',
    ],
    [
      {},
      { kind: 'failed', error: 'connection refused' },
      'unknown',
      'GET http://127.0.0.1:8080/health failed: connection refused',
    ],
    [{}, { kind: 'timed-out', afterMs: 5000 }, 'unknown', 'GET http://127.0.0.1:8080/health timed out after 5s'],
  ];
  for (const [extra, outcome, state, reason] of cases) {
    const v = judgeHttp(claim(extra), 'api', outcome);
    assert.deepEqual([v.verdict, v.reason], [state, reason], reason);
  }
  assert.deepEqual(statusRange('200-299'), [200, 299]);
  assert.deepEqual(statusRange('204'), [204, 204]);
});

test('claim names default to kind and position', () => {
  assert.equal(claimName(fileClaim({ name: 'export' }), 0), 'export');
  assert.equal(claimName(fileClaim(), 0), 'file-1');
  assert.equal(claimName(httpClaimSchema.parse({ kind: 'http', url: 'http://127.0.0.1/' }), 2), 'http-3');
});

test('summaries: dead wins over unknown, unknown never counts as alive', () => {
  const v = (verdict: VerdictState): Verdict => ({ claim: 'c', kind: 'file', verdict, reason: '' });
  assert.equal(combinedState([]), 'alive');
  assert.equal(combinedState([v('alive'), v('alive')]), 'alive');
  assert.equal(combinedState([v('alive'), v('unknown')]), 'unknown');
  assert.equal(combinedState([v('unknown'), v('dead'), v('alive')]), 'dead');
  assert.deepEqual(summarize([v('dead'), v('alive'), v('dead'), v('alive')]), {
    checked: 4,
    dead: 2,
    unknown: 0,
    alive: 2,
    needsAttention: true,
    line: '4 checked | 2 green and dead | 2 alive',
  });
  assert.deepEqual(summarize([v('alive'), v('unknown')]), {
    checked: 2,
    dead: 0,
    unknown: 1,
    alive: 1,
    needsAttention: true,
    line: '2 checked | 0 green and dead | 1 unknown | 1 alive',
  });
  assert.equal(summarize([v('alive')]).needsAttention, false);
  assert.equal(summarize([]).line, '0 checked | 0 green and dead | 0 alive');
});
