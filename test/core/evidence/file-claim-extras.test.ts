import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileClaimSchema, jobSchema } from '../../../lib/core/config/config.ts';
import { chooseEvidence, judgeFile, type Candidate } from '../../../lib/core/evidence/evidence.ts';
import { judgeCount } from '../../../lib/core/evidence/file-count.ts';

/** header, modified_today (its day from the given clock and zone), min_count and max_count; and their bad inputs. */

const NOW = Date.UTC(2026, 11, 7, 9, 30);
const claim = (extra: Record<string, unknown>) =>
  fileClaimSchema.parse({ kind: 'file', root: '/out', glob: '/out/*.csv', ...extra });
const file = (name: string, mtimeMs: number, size = 10): Candidate => ({
  path: `/out/${name}`,
  state: 'present',
  resolved: `/out/${name}`,
  isFile: true,
  size,
  mtimeMs,
});

function judge(extra: Record<string, unknown>, candidates: Candidate[], head = '', timeZone = 'UTC') {
  const c = claim(extra);
  const counted = judgeCount(c, 'c', candidates, '/out');
  if (counted) return [counted.verdict, counted.reason];
  const v = judgeFile(c, 'c', chooseEvidence(c, candidates, '/out'), { head, tail: null }, NOW, timeZone);
  return [v.verdict, v.reason];
}

test('header, today and counts', () => {
  const fresh = file('a.csv', NOW - 60_000);
  assert.deepEqual(judge({ header: 'day,total' }, [fresh], 'day,total\r\n1,2\n'), [
    'alive',
    'a.csv: 10 bytes, modified 1 minute ago',
  ]);
  assert.deepEqual(judge({ header: 'day,total' }, [fresh], 'id,name\n'), [
    'dead',
    'a.csv does not start with the header "day,total" (its first line: "id,name")',
  ]);
  const lastNight = file('b.csv', Date.UTC(2026, 11, 6, 23, 0));
  assert.deepEqual(judge({ modified_today: true }, [lastNight]), [
    'dead',
    'b.csv was last modified on 2026-12-06, not today (UTC)',
  ]);
  assert.equal(
    judge({ modified_today: true }, [lastNight], '', 'Europe/Paris')[0],
    'alive',
    'already the 7th in Paris',
  );
  assert.equal(
    judge({ modified_today: true, time_zone: 'Asia/Tokyo' }, [lastNight], '', 'UTC')[0],
    'alive',
    "the claim's zone wins",
  );
  assert.deepEqual(judge({ max_count: 0 }, []), ['alive', 'no file left matching /out/*.csv']);
  assert.deepEqual(judge({ max_count: 0 }, [fresh, lastNight]), [
    'dead',
    '2 files left matching /out/*.csv (expected none)',
  ]);
  assert.deepEqual(judge({ min_count: 3 }, [fresh, lastNight]), [
    'dead',
    '2 files match /out/*.csv (expected at least 3)',
  ]);
  assert.deepEqual(judge({ max_count: 0 }, [{ path: '/out/x.csv', state: 'error', error: 'permission denied' }]), [
    'unknown',
    'cannot inspect /out/x.csv: permission denied',
  ]);
  assert.equal(judge({ min_count: 2 }, [fresh, lastNight])[0], 'alive');
});

test("bad input: each new key's mistakes are refused with the key and the fix", () => {
  const problem = (extra: Record<string, unknown>) => {
    const result = fileClaimSchema.safeParse({ kind: 'file', root: '/out', glob: '/out/*.csv', ...extra });
    return result.success ? null : `${result.error.issues[0]!.path.join('.')}: ${result.error.issues[0]!.message}`;
  };
  assert.equal(
    problem({ time_zone: 'Mars/Olympus', modified_today: true }),
    'time_zone: must be a time zone name such as "UTC" or "Europe/Paris"',
  );
  assert.equal(
    problem({ time_zone: 'UTC' }),
    'time_zone: only sets the day of modified_today = true; add that or remove time_zone',
  );
  assert.equal(problem({ min_count: 3, max_count: 1 }), 'min_count: is above max_count (1)');
  assert.equal(
    problem({ glob: undefined, path: '/out/a.csv', min_count: 2 }),
    'min_count: counts the files a glob matches; use glob instead of path',
  );
  assert.equal(problem({ header: '' })?.startsWith('header: '), true);
  const job = jobSchema.safeParse({ rerun: ['/bin/x'] });
  assert.equal(
    job.success ? null : job.error.issues[0]!.message,
    'a job needs claim = "…" (plain English) or at least one [[jobs.NAME.evidence]] claim',
  );
  const empty = jobSchema.safeParse({ rerun: ['/bin/x'], claim: '  ' });
  assert.match(empty.success ? '' : empty.error.issues[0]!.message, /^is empty; write what the job should leave/);
});
