import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localDate, offsetZone, startOfDay } from '../../../lib/core/time/day-start.ts';

// 2026-12-07 01:30 UTC: already the 7th at +05:30, still the 6th at -07:00.
const at = Date.UTC(2026, 11, 7, 1, 30);

test("a container's fixed offset (date +%z) is a zone: its day starts at its own midnight", () => {
  assert.equal(offsetZone(330), '+05:30');
  assert.equal(offsetZone(-420), '-07:00');
  assert.equal(offsetZone(0), '+00:00');
  assert.equal(startOfDay(at, '+05:30'), Date.UTC(2026, 11, 6, 18, 30));
  assert.equal(localDate(at, '+05:30'), '2026-12-07');
  assert.equal(startOfDay(at, '-07:00'), Date.UTC(2026, 11, 6, 7, 0));
  assert.equal(localDate(at, '-07:00'), '2026-12-06');
});

test('a zone name keeps its own rules, as Intl reads them', () => {
  assert.equal(startOfDay(at, 'UTC'), Date.UTC(2026, 11, 7));
  assert.equal(localDate(at, 'America/Los_Angeles'), '2026-12-06');
});
