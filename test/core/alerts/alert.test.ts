import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertAllowed, buildAlertRequests, type Alert } from '../../../lib/core/alerts/alert.ts';

const base: Alert = { event: 'fail', name: 'review', host: 'box', at: '2026-12-01T21:00:00.000Z', exit_code: 3, incident: null };
const sinks = { webhook: ['http://hook/a'], healthchecks: 'http://hc/ping/uuid/', ntfy: 'http://ntfy/topic', command: ['/bin/page'] };

test('each sink gets its own request shape', () => {
  const [webhook, hc, ntfy, command] = buildAlertRequests(base, sinks);
  assert.deepEqual(webhook, { sink: 'webhook', url: 'http://hook/a', headers: { 'content-type': 'application/json' }, body: JSON.stringify(base) });
  assert.equal(hc && 'url' in hc && hc.url, 'http://hc/ping/uuid/3', 'a fail pings with its exit code, as runitor does');
  assert.equal(ntfy && 'headers' in ntfy && ntfy.headers.priority, 'high');
  assert.deepEqual(command, { sink: 'command', argv: ['/bin/page'], stdin: JSON.stringify(base) });
  assert.equal(buildAlertRequests(base, { webhook: [] }).length, 0);
});

test('healthchecks URLs for each event', () => {
  const url = (alert: Partial<Alert>) => (buildAlertRequests({ ...base, ...alert }, { webhook: [], healthchecks: 'http://hc/u' })[0] as { url: string }).url;
  assert.equal(url({ event: 'start' }), 'http://hc/u/start');
  assert.equal(url({ event: 'success', exit_code: 0 }), 'http://hc/u');
  assert.equal(url({ event: 'fail', exit_code: null }), 'http://hc/u/fail');
  assert.equal(url({ event: 'incident' }), 'http://hc/u/log');
});

test('the same event of a run goes out at most once per min_interval; fail and success always', () => {
  const log = { 'review/incident': 1_000 };
  const incident = { name: 'review', event: 'incident' as const };
  assert.equal(alertAllowed(log, incident, 1_000 + 59_999, 60_000), false);
  assert.equal(alertAllowed(log, incident, 1_000 + 60_000, 60_000), true);
  assert.equal(alertAllowed(log, { ...incident, name: 'other' }, 1_001, 60_000), true);
  assert.equal(alertAllowed({ 'review/fail': 1_000 }, { name: 'review', event: 'fail' }, 1_001, 60_000), true);
  assert.equal(alertAllowed(log, incident, 500, 60_000), true, 'a clock set back does not silence alerts');
});
