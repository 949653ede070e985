import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configSchema } from '../../../lib/core/config/config.ts';
import { planReload, reloadLine } from '../../../lib/core/config/live-keys.ts';

/** What a SIGHUP applies to a running run, and the one line it says (issue 22.4). */

const parse = (raw: Record<string, unknown>) => configSchema.parse(raw);

test('thresholds, evidence and sinks apply live; the command waits for the next start', () => {
  const running = parse({ inactivity: '30min', command: ['a'], notify: { webhook: ['https://example.com/a'] } });
  const next = parse({
    inactivity: '5s',
    hung_timeout: '2s',
    command: ['b'],
    notify: { webhook: ['https://example.com/b'] },
  });
  const plan = planReload(running, next);
  assert.equal(plan.config.inactivity, 5_000);
  assert.equal(plan.config.hung_timeout, 2_000);
  assert.deepEqual(plan.config.notify.webhook, ['https://example.com/b']);
  assert.deepEqual(plan.config.command, ['a'], 'the running command is kept');
  assert.deepEqual(plan.applied, ['inactivity 30min → 5s', 'hung_timeout 1min → 2s', 'notify']);
  assert.deepEqual(plan.atNextStart, ['command']);
  assert.equal(
    reloadLine('/etc/x.toml', plan),
    'SIGHUP: re-read /etc/x.toml: applied inactivity 30min → 5s, hung_timeout 1min → 2s, notify; command at the next start; the work goes on untouched',
  );
});

test('an unchanged key keeps its very value (the evidence gate goes on watching the same claims)', () => {
  const evidence = [{ kind: 'command', command: ['true'], when: 'always' }];
  const running = parse({ evidence });
  const plan = planReload(running, parse({ evidence, timeout: '1h' }));
  assert.equal(plan.config.evidence, running.evidence);
  assert.deepEqual(plan.applied, ['timeout off → 1h']);
  assert.equal(reloadLine('f', planReload(running, parse({ evidence }))), 'SIGHUP: re-read f: nothing changed');
});
