import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markInterrupted, newMarker, withSessionId } from '../../lib/core/revive/marker.ts';
import { markerPath, writeMarker } from '../../lib/io/revive/markers.ts';
import { ExitCode } from '../../lib/exit-codes.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { loopbackSink, type Received } from '../helpers/loopback-sink.ts';
import { PLANTED } from '../helpers/planted-secrets.ts';

/**
 * `deadman revive` alerts [notify] by itself when it refuses, as `deadman run` does: a spent
 * revive budget (HALT_AND_ESCALATE) and a refused marker (REVIVE_REFUSED) each need a person.
 * One incident alert each, no lifecycle end (the hook is not the run), secrets redacted.
 */

interface AlertBody {
  event: string;
  name: string;
  incident: { kind: string; state: string; error_code: string | null } | null;
  reason: string | null;
}

const ID = '01a23100-0000-7000-8000-0000000000bb';

function setup(t: { after(fn: () => void): void }, url: string) {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(join(dir, 'state'))}\n[revive]\ndelay = "0"\nmax_age = "1h"\nmax_revives = 1\n` +
      `[notify]\nwebhook = ["${url}/hook"]\nhealthchecks = "${url}/ping/abc"\ntimeout = "3s"\n`,
  );
  const env = { ...process.env, HOME: dir, NOTIFY_SOCKET: '', DEADMAN_CONFIG: '', STATE_DIRECTORY: '' };
  // The prompt carries a secret: it is in the marker's argv, never in an alert.
  const argv = ['/bin/true', 'exec', '--json', `use ${PLANTED.openai}`];
  const started = withSessionId(
    newMarker({
      name: 'agent',
      adapter: 'codex',
      argv,
      cwd: dir,
      owner: { pid: 999_999, startTime: 1 },
      now: Date.now() - 60_000,
    }),
    ID,
    Date.now() - 60_000,
  );
  return {
    dir,
    config,
    env,
    markers: join(dir, 'state', 'markers'),
    interrupted: markInterrupted(started, 'exit 137', Date.now() - 60_000),
  };
}

const hooks = (received: readonly Received[]) =>
  received.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body) as AlertBody);

test('a spent revive budget: deadman revive sends the HALT_AND_ESCALATE alert to both sinks', async (t) => {
  const sink = await loopbackSink(t);
  const s = setup(t, sink.url);
  writeMarker(s.markers, { ...s.interrupted, reviveCount: 1 });
  const result = await runDeadman(['revive', '--config', s.config], { env: s.env, cwd: s.dir });
  assert.equal(result.code, ExitCode.DO_NOT_RESTART, result.stderr);
  assert.deepEqual(
    hooks(sink.received).map((a) => [a.event, a.name, a.incident?.kind, a.incident?.state, a.incident?.error_code]),
    [['incident', 'agent', 'HALT_AND_ESCALATE', 'ESCALATED', 'halted']],
  );
  assert.match(hooks(sink.received)[0]!.reason ?? '', /a person must look/);
  assert.deepEqual(
    sink.received.filter((r) => r.path.startsWith('/ping/abc')).map((r) => r.path),
    ['/ping/abc/fail'],
    'the check goes down: a person is needed',
  );
  assert.equal(
    sink.received.filter((r) => r.body.includes(PLANTED.openai)).length,
    0,
    "the prompt's secret is in no alert",
  );
});

test('a refused marker: deadman revive sends the REVIVE_REFUSED alert', async (t) => {
  const sink = await loopbackSink(t);
  const s = setup(t, sink.url);
  writeMarker(s.markers, s.interrupted);
  // Changed behind deadman's back: its MAC no longer matches.
  const path = markerPath(s.markers, 'agent');
  writeFileSync(path, readFileSync(path, 'utf8').replace('/bin/true', '/bin/sh'));
  const result = await runDeadman(['revive', '--config', s.config], { env: s.env, cwd: s.dir });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /revive marker .* refused/);
  assert.deepEqual(
    hooks(sink.received).map((a) => [a.event, a.incident?.kind, a.incident?.state]),
    [['incident', 'REVIVE_REFUSED', 'ESCALATED']],
  );
});
