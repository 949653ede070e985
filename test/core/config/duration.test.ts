import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAge, formatDuration, parseDuration } from '../../../lib/core/config/duration.ts';

test('parses systemd spans', () => {
  const cases: Array<[string, number]> = [
    ['90s', 90_000], ['7min', 420_000], ['6h', 21_600_000], ['1d', 86_400_000], ['500ms', 500],
    ['1h 30min', 5_400_000], ['2m', 120_000], ['45', 45_000], ['off', 0], ['0', 0], ['1.5s', 1500], ['1w', 604_800_000],
  ];
  for (const [text, ms] of cases) assert.deepEqual(parseDuration(text), { ok: true, ms }, text);
});

test('refuses malformed spans with a fix', () => {
  for (const text of ['7 minutes', '-5s', '', 'soon', '5parsecs', '1h30', '10 s']) {
    const result = parseDuration(text);
    assert.equal(result.ok, false, text);
  }
  const spaced = parseDuration('7 minutes');
  assert.ok(!spaced.ok && spaced.error.includes('"7min"'));
});

test('formats durations for messages', () => {
  assert.equal(formatDuration(30 * 60_000), '30m 0s');
  assert.equal(formatDuration(4_000), '4s');
  assert.equal(formatDuration(3_723_000), '1h 2m 3s');
  assert.equal(formatDuration(2 * 86_400_000 + 3_600_000), '2d 1h 0m 0s');
  assert.equal(formatDuration(250), '250ms');
  assert.equal(formatAge(4 * 86_400_000 + 5), '4 days');
  assert.equal(formatAge(3_600_000), '1 hour');
});
