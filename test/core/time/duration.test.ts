import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { formatAge, formatDuration, formatSpan, parseDuration, parseSpan } from '../../../lib/core/time/duration.ts';
import { SPAN_CORPUS as CORPUS } from '../../helpers/duration-corpus.ts';

/** systemd-analyze's reading of a span: its microseconds and human form, or null when it refuses. */
function systemdReads(text: string): { usec: string; human: string } | null {
  const result = spawnSync('systemd-analyze', ['timespan', '--', text], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const usec = /μs: (\d+)/.exec(result.stdout)?.[1];
  const human = /Human: (.*)/.exec(result.stdout)?.[1];
  assert.ok(usec !== undefined && human !== undefined, result.stdout);
  return { usec, human };
}

const systemdAnalyze = spawnSync('systemd-analyze', ['timespan', '1s'], { encoding: 'utf8' });
const noSystemd = systemdAnalyze.status === 0 ? false : 'systemd-analyze is not installed here (CI has it)';

test('every spelling of the corpus reads and prints as systemd-analyze timespan does', { skip: noSystemd }, () => {
  assert.ok(CORPUS.length >= 50);
  const valid = new Set<string>();
  for (const text of CORPUS) {
    const expected = systemdReads(text);
    const ours = parseSpan(text);
    if (expected === null) {
      assert.equal(
        ours.ok,
        false,
        `${JSON.stringify(text)}: systemd refuses it, deadman read ${JSON.stringify(ours, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
      continue;
    }
    valid.add(text);
    assert.ok(
      ours.ok,
      `${JSON.stringify(text)}: systemd reads ${expected.usec} µs, deadman refused it: ${!ours.ok && ours.error}`,
    );
    const usec = ours.usec === 'infinity' ? (1n << 64n) - 1n : ours.usec;
    assert.equal(String(usec), expected.usec, JSON.stringify(text));
    assert.equal(formatSpan(ours.usec), expected.human, JSON.stringify(text));
  }
  assert.ok(valid.size >= 50, `only ${valid.size} valid spellings`);
});

test('the spellings the issue names parse without systemd too', () => {
  const cases: Array<[string, number]> = [
    ['7 minutes', 420_000],
    ['3 days', 259_200_000],
    ['1h30min', 5_400_000],
    ['2M', 5_259_600_000],
    ['1y', 31_557_600_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['90', 90_000],
    ['1us', 1],
    ['0', 0],
  ];
  for (const [text, ms] of cases) assert.deepEqual(parseDuration(text), { ok: true, ms }, text);
  assert.deepEqual(parseDuration('infinity'), { ok: true, ms: Number.POSITIVE_INFINITY });
  assert.equal(formatSpan(90_000_000n), '1min 30s');
  assert.equal(formatSpan(1_500_000n), '1.500000s');
});

test('refusals say what is wrong and how to write it', () => {
  const expectations: Array<[string, RegExp]> = [
    ['-5s', /is negative/],
    ['', /is empty/],
    ['5parsecs', /unknown unit "parsecs"/],
    ['1mo', /unknown unit "o"; use .*M \(months\)/],
    ['5 fortnights', /unknown unit "fortnights"/],
    ['5.s', /"\." without digits/],
    [`1${'0'.repeat(400)}`, /out of range/],
    ['99999999999999999999s', /out of range/],
    ['soon', /is not a time span/],
  ];
  for (const [text, expected] of expectations) {
    const result = parseDuration(text);
    assert.ok(!result.ok && expected.test(result.error), `${text}: ${JSON.stringify(result)}`);
  }
});

test('messages use systemd spelling to the second', () => {
  assert.equal(formatDuration(30 * 60_000), '30min');
  assert.equal(formatDuration(4_000), '4s');
  assert.equal(formatDuration(16_234), '16s');
  assert.equal(formatDuration(3_723_000), '1h 2min 3s');
  assert.equal(formatDuration(2 * 86_400_000 + 3_600_000), '2d 1h');
  assert.equal(formatDuration(250), '250ms');
  assert.equal(formatDuration(0), '0');
  assert.equal(formatDuration(Number.POSITIVE_INFINITY), 'infinity');
  assert.equal(formatAge(4 * 86_400_000 + 5), '4 days');
  assert.equal(formatAge(3_600_000), '1 hour');
});
