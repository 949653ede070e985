import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configSchema, knownKeysAt } from '../../../lib/core/config/config.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';
import { closest } from '../../../lib/core/config/did-you-mean.ts';

test('the lean defaults equal what the schema produces from an empty file', () => {
  assert.deepEqual(configSchema.parse({}), DEFAULT_CONFIG);
});

test('durations resolve to milliseconds and claims get their defaults', () => {
  const config = configSchema.parse({
    inactivity: '1h 30min',
    hung_timeout: 90,
    evidence: [{ kind: 'file', root: '/out', glob: '/out/*.csv', max_age: '6h' }],
  });
  assert.equal(config.inactivity, 5_400_000);
  assert.equal(config.hung_timeout, 90_000);
  assert.deepEqual(config.evidence[0], {
    kind: 'file',
    root: '/out',
    glob: '/out/*.csv',
    max_age: 21_600_000,
    non_empty: false,
    when: 'on_exit',
    interval: 60_000,
    grace: 0,
  });
});

test('known keys for "did you mean" follow sections, arrays and unions', () => {
  assert.ok(knownKeysAt([]).includes('hung_timeout'));
  assert.ok(knownKeysAt(['revive']).includes('max_revives'));
  assert.ok(knownKeysAt(['evidence', 0]).includes('glob'));
  assert.ok(knownKeysAt(['jobs', 'nightly', 'evidence', 2]).includes('url'));
  assert.equal(closest('inactivty', knownKeysAt([])), 'inactivity');
  assert.equal(closest('zzzz', knownKeysAt([])), undefined);
});

test('revive.max_revives is 0 (off) to 20, and past it the error says why', () => {
  assert.equal(configSchema.parse({ revive: { max_revives: 20 } }).revive.max_revives, 20);
  const tooMany = configSchema.safeParse({ revive: { max_revives: 21 } });
  assert.equal(tooMany.success, false);
  assert.match(
    tooMany.error!.issues[0]!.message,
    /at most 20: a session revived that often in a row without a clean completion needs a person/,
  );
  assert.equal(configSchema.safeParse({ revive: { max_revives: -1 } }).success, false);
});
