import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readClaim } from '../../../lib/core/claims/read-claim.ts';
import { planLines } from '../../../lib/core/claims/plan-text.ts';
import { startOfDay } from '../../../lib/core/time/day-start.ts';

/** The reader, pure: sentence → the TOML lines of the typed plan, or the refusal line. */
const read = (sentence: string): string[] | string => {
  const reading = readClaim(sentence);
  return reading.ok ? reading.plan.flatMap(planLines).filter((l) => !l.startsWith('name')) : reading.refusal.reason;
};

test('sentences people write become typed file claims', () => {
  const cases: Array<[string, string[]]> = [
    [
      'a non-empty CSV under /out/export, modified in the last 6 hours',
      ['kind = "file"', 'root = "/out/export"', 'glob = "/out/export/*.csv"', 'non_empty = true', 'max_age = "6h"'],
    ],
    [
      'backup.tar.gz in /var/backups, at least 1 KB, written within 1 day',
      [
        'kind = "file"',
        'root = "/var/backups"',
        'path = "/var/backups/backup.tar.gz"',
        'min_bytes = 1000',
        'max_age = "1d"',
      ],
    ],
    [
      'no files left in /var/spool/queue',
      ['kind = "file"', 'root = "/var/spool/queue"', 'glob = "/var/spool/queue/*"', 'max_count = 0'],
    ],
    [
      'a report at /srv/r/report.csv with a header "day,total" and more than 1 line, from today',
      [
        'kind = "file"',
        'root = "/srv/r"',
        'path = "/srv/r/report.csv"',
        'modified_today = true',
        'min_lines = 2',
        'header = "day,total"',
      ],
    ],
    [
      'at least 3 JSON files under /data, each at least 2 KiB',
      ['kind = "file"', 'root = "/data"', 'glob = "/data/*.json"', 'min_bytes = 2048', 'min_count = 3'],
    ],
    [
      'a log under /var/log/app containing "DONE.", updated in the last hour',
      [
        'kind = "file"',
        'root = "/var/log/app"',
        'glob = "/var/log/app/*.log"',
        'max_age = "1h"',
        'contains = "DONE\\\\."',
      ],
    ],
    [
      '/out/export/*.csv is non-empty.',
      ['kind = "file"', 'root = "/out/export"', 'glob = "/out/export/*.csv"', 'non_empty = true'],
    ],
    [
      'a tarball under /b newer than two days',
      ['kind = "file"', 'root = "/b"', 'glob = "/b/*.tar.gz"', 'max_age = "2d"'],
    ],
    [
      'a dump named "db-*.sql" in /dumps bigger than 10 MB',
      ['kind = "file"', 'root = "/dumps"', 'glob = "/dumps/db-*.sql"', 'min_bytes = 10000001'],
    ],
  ];
  for (const [sentence, plan] of cases) assert.deepEqual(read(sentence), plan, sentence);
});

test('a word it does not know is refused with that word and the nearest it knows; a phrase it cannot place, with why', () => {
  const cases: Array<[string, string]> = [
    ['a spreadsheet under /x', 'does not understand "spreadsheet" (nearest word it knows: "snapshot")'],
    ['a CSV undr /x', 'does not understand "undr" (nearest word it knows: "under")'],
    [
      'a CSV modified in the last 6 hours',
      'says nowhere where the file is; add "under /path" (a directory) or "at /path/file"',
    ],
    [
      'a CSV or a JSON under /x',
      '"or": a claim says what must hold, not alternatives; write one claim per alternative you would accept',
    ],
    ['a CSV under /x, 6 hours', '"6 hours": an age says how recent, e.g. "modified in the last 6 hours"'],
    ['a CSV under /x with 12', '"12": a number needs a unit after it: "6 hours", "10 MB", "100 lines", "3 files"'],
    [
      'a CSV under /x containing DONE',
      '"containing": put the text in double quotes, e.g. contains "DONE" or a header "id,name"',
    ],
    ['a CSV under /x and under /y', '"/y": names a second place (first: /x); a claim is about one place'],
    ['a CSV under /x newer than', '"newer": needs a span after it, e.g. "newer … 6 hours"'],
    [
      'a CSV under /out/../etc',
      'glob root /out/../etc contains ".."; write the path without it; a claim may only look inside its root',
    ],
    ['a CSV under /x €', 'does not understand "€" (nearest word it knows: "an")'],
  ];
  for (const [sentence, reason] of cases) assert.equal(read(sentence), reason, sentence);
});

test('the same sentence always gives the same plan', () => {
  const sentence = 'a non-empty CSV under /out/export, modified in the last 6 hours';
  assert.deepEqual(readClaim(sentence), readClaim(sentence));
});

test('today starts at midnight of the given zone, daylight saving included', () => {
  const at = Date.UTC(2026, 2, 29, 12, 0); // Europe/Paris switched to summer time at 01:00 UTC that day
  assert.equal(startOfDay(at, 'UTC'), Date.UTC(2026, 2, 29));
  assert.equal(startOfDay(at, 'Europe/Paris'), Date.UTC(2026, 2, 28, 23));
  assert.equal(startOfDay(Date.UTC(2026, 2, 29, 3), 'America/New_York'), Date.UTC(2026, 2, 28, 4));
});

test('a glob after "matching", and text in single quotes when it holds double quotes', () => {
  const glob = readClaim('a file matching /srv/out/*-daily.json, newer than 2 days');
  assert.ok(glob.ok, JSON.stringify(glob));
  assert.deepEqual(
    glob.inputs.map((c) => [c.glob, c.max_age]),
    [['/srv/out/*-daily.json', 2 * 86_400]],
    'two days, in seconds as the TOML holds it',
  );
  const quoted = readClaim('/srv/status.json containing \'"status": "ok"\'');
  assert.ok(quoted.ok, JSON.stringify(quoted));
  assert.equal(
    quoted.plan[0]!.kind === 'file' && quoted.plan[0]!.contains,
    '"status": "ok"'.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  assert.ok(readClaim("today's report under /srv/reports").ok, 'an apostrophe inside a word is no quote');
});
