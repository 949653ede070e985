import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blankAlert, buildAlertRequests, TAIL_LIMIT, type Alert } from '../../../lib/core/alerts/alert.ts';
import { alreadySent, noteSent } from '../../../lib/core/alerts/alert-log-rules.ts';

const base: Alert = {
  ...blankAlert({ event: 'fail', name: 'review', host: 'box', at: '2026-12-01T21:00:00.000Z', source: 'notify' }),
  exit_code: 3,
};
const sinks = {
  webhook: ['http://hook/a'],
  healthchecks: 'http://hc/ping/uuid/',
  ntfy: 'http://ntfy/topic',
  command: ['/bin/page'],
};
const incident = (state: string) => ({
  id: 4,
  kind: 'HUNG_PROCESS',
  error_code: 'hung_process',
  state,
  message: 'sleep 600 idle',
});

test('each sink gets its own request shape', () => {
  const [webhook, hc, ntfy, command] = buildAlertRequests(base, sinks);
  assert.deepEqual(webhook, {
    sink: 'webhook',
    url: 'http://hook/a',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(base),
  });
  assert.equal(
    hc && 'url' in hc && hc.url,
    'http://hc/ping/uuid/3',
    'a fail pings with its exit code, as runitor does',
  );
  assert.equal(ntfy && 'headers' in ntfy && ntfy.headers.priority, 'high');
  assert.deepEqual(command, { sink: 'command', argv: ['/bin/page'], stdin: JSON.stringify(base) });
  assert.equal(buildAlertRequests(base, { webhook: [] }).length, 0);
});

test('healthchecks URLs for each event: an incident that needs a person pings /fail, any other /log', () => {
  const url = (alert: Partial<Alert>) =>
    (buildAlertRequests({ ...base, ...alert }, { webhook: [], healthchecks: 'http://hc/u' })[0] as { url: string }).url;
  assert.equal(url({ event: 'start' }), 'http://hc/u/start');
  assert.equal(url({ event: 'success', exit_code: 0 }), 'http://hc/u');
  assert.equal(url({ event: 'fail', exit_code: null }), 'http://hc/u/fail');
  assert.equal(url({ event: 'incident', incident: incident('AWAITING_APPROVAL') }), 'http://hc/u/fail');
  assert.equal(url({ event: 'incident', incident: incident('ESCALATED') }), 'http://hc/u/fail');
  assert.equal(url({ event: 'incident', incident: incident('RESOLVED') }), 'http://hc/u/log');
});

test("the ping body is the summary, then the output's tail, its end kept within TAIL_LIMIT", () => {
  const long = 'x'.repeat(TAIL_LIMIT);
  const [hc] = buildAlertRequests(
    { ...base, output_tail: ['first line', long, 'last line'] },
    { webhook: [], healthchecks: 'http://hc/u' },
  ) as Array<{ body: string }>;
  const [summary, , tail] = hc!.body.split('\n');
  assert.match(summary!, /^deadman review on box: fail · exit 3$/);
  assert.equal(hc!.body.length, summary!.length + 2 + TAIL_LIMIT);
  assert.ok(hc!.body.endsWith('\nlast line'));
  assert.ok(!hc!.body.includes('first line'));
  assert.equal(tail!.length, TAIL_LIMIT - 'last line'.length - 1);
});

test('an approval alert names the answers; a reminder says so', () => {
  const [, , ntfy] = buildAlertRequests(
    {
      ...base,
      event: 'incident',
      incident: incident('AWAITING_APPROVAL'),
      commands: ['deadman approve 4', 'deadman deny 4'],
      reminder: 2,
    },
    sinks,
  ) as Array<{ body: string; headers: Record<string, string> }>;
  assert.equal(
    ntfy!.body,
    'deadman review on box: incident (reminder 2: still waiting) · incident #4 HUNG_PROCESS AWAITING_APPROVAL: sleep 600 idle · answer: deadman approve 4 or deadman deny 4',
  );
  assert.equal(ntfy!.headers.title, 'deadman review: a person is needed');
});

test('min_interval: the same alert once per span; a fail per exit code until a success; a success always', () => {
  const at = 1_000;
  const start = { ...base, event: 'start' as const };
  let log = noteSent({}, start, at, null);
  assert.equal(alreadySent(log, start, at + 59_999, 60_000), true);
  assert.equal(alreadySent(log, start, at + 60_000, 60_000), false);
  assert.equal(alreadySent(log, start, 500, 60_000), false, 'a clock set back does not silence alerts');
  log = noteSent(log, base, at, null);
  assert.equal(alreadySent(log, base, at + 1, 60_000), true, 'the same exit code again');
  assert.equal(alreadySent(log, { ...base, exit_code: 4 }, at + 1, 60_000), false, 'another exit code');
  const success = { ...base, event: 'success' as const, exit_code: 0 };
  log = noteSent(log, success, at + 2, null);
  assert.equal(alreadySent(log, success, at + 3, 60_000), false);
  assert.equal(alreadySent(log, base, at + 3, 60_000), false, 'a success forgets the fails before it');
  const mine = noteSent({}, base, at, 'inv-1');
  assert.equal(alreadySent(mine, base, at + 3_600_000, 60_000, 'inv-1'), true, 'what this invocation sent, at any age');
  assert.equal(alreadySent(mine, base, at + 3_600_000, 60_000, 'inv-2'), false);
});
