import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { loopbackSink as loopback } from '../helpers/loopback-sink.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

// A sink's timeout is long enough for the test's own loopback server on a busy host (it answered
// a CI run's webhook after more than 2 s at load 10-15); the timeout itself is tested below.
function writeConfig(dir: string, url: string, extra = ''): string {
  const file = join(dir, 'deadman.toml');
  writeFileSync(
    file,
    `[notify]\nwebhook = ["${url}/hook"]\nhealthchecks = "${url}/ping/abc"\nntfy = "${url}/topic"\ncommand = ["/bin/sh", "-c", "cat > ${join(dir, 'command-input.json')}"]\ntimeout = "20s"\n${extra}`,
  );
  return file;
}

test("a fail reaches every sink with the exit code, in each sink's shape", async (t) => {
  const dir = tempDir(t);
  const server = await loopback(t);
  const config = writeConfig(dir, server.url);
  const run = await runDeadman(
    ['notify', 'fail', '--name', 'review', '--config', config, '--database', join(dir, 'deadman.db')],
    { env: { ...process.env, MONITOR_EXIT_STATUS: '3', STATE_DIRECTORY: dir } },
  );
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const byPath = new Map(server.received.map((r) => [r.path, r]));
  const hook = JSON.parse(byPath.get('/hook')!.body) as { event: string; name: string; exit_code: number; at: string };
  assert.deepEqual([hook.event, hook.name, hook.exit_code], ['fail', 'review', 3]);
  assert.match(hook.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.match(byPath.get('/ping/abc/3')!.body, /review .*fail · exit 3/);
  assert.equal(byPath.get('/topic')!.headers.priority, 'high');
  assert.equal(
    (JSON.parse(readFileSync(join(dir, 'command-input.json'), 'utf8')) as { exit_code: number }).exit_code,
    3,
  );
  assert.match(run.stdout, /^sent webhook: .*answered 200$/m);
});

test('a sink that never answers costs its timeout, fails the command, and the others are still sent', async (t) => {
  const dir = tempDir(t);
  const server = await loopback(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `[notify]\nwebhook = ["${server.url}/hang", "${server.url}/hook"]\ntimeout = "1s"\n`);
  const host = measureHostDelay();
  const started = performance.now();
  const run = await runDeadman(['notify', 'start', '--name', 'review', '--config', config], {
    env: { ...process.env, STATE_DIRECTORY: dir },
  });
  const elapsed = performance.now() - started;
  assert.equal(run.code, 1, run.stdout);
  assert.match(run.stdout, /^FAILED webhook: .*\/hang: no answer within 1000 ms$/m);
  assert.match(run.stdout, /^sent webhook: .*\/hook answered 200$/m);
  assert.ok(
    elapsed < host.scaled(10_000),
    `took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
});

test("an incident alert names the run's latest incident and is not repeated within min_interval", async (t) => {
  const dir = tempDir(t);
  const server = await loopback(t);
  const config = writeConfig(dir, server.url, 'min_interval = "1h"\n');
  const env = { ...process.env, STATE_DIRECTORY: dir };
  const database = join(dir, 'deadman.db');
  const stalled = await runDeadman(
    [
      'run',
      '--name',
      'review',
      '--database',
      database,
      '--inactivity',
      '1s',
      '--poll',
      '100ms',
      '--stop-grace',
      '1s',
      '--',
      'sleep',
      '30',
    ],
    { env },
  );
  assert.equal(stalled.code, 75, stalled.stderr);
  const first = await runDeadman(
    ['notify', 'incident', '--name', 'review', '--config', config, '--database', database],
    { env },
  );
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const hook = JSON.parse(server.received.find((r) => r.path === '/hook')!.body) as {
    incident: { kind: string; state: string };
  };
  assert.deepEqual([hook.incident.kind, hook.incident.state], ['OUTPUT_INACTIVITY', 'ESCALATED']);
  const sent = server.received.length;
  const second = await runDeadman(
    ['notify', 'incident', '--name', 'review', '--config', config, '--database', database],
    { env },
  );
  assert.equal(second.code, 0);
  assert.match(second.stdout, /^skipped: review\/incident\/1\/ESCALATED: it went out less than min_interval ago$/m);
  assert.equal(server.received.length, sent);
});

test('no sinks: nothing is sent and that is said; a bad sink URL is a config error', async (t) => {
  const dir = tempDir(t);
  const none = await runDeadman(['notify', 'success', '--name', 'review'], {
    env: { ...process.env, STATE_DIRECTORY: dir, DEADMAN_CONFIG: '' },
    cwd: dir,
  });
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /^no sinks in \[notify\]: nothing sent/);
  const config = join(dir, 'bad.toml');
  writeFileSync(config, '[notify]\nwebhook = ["ftp://x"]\n');
  const bad = await runDeadman(['notify', 'success', '--name', 'review', '--config', config]);
  assert.equal(bad.code, 78, bad.stderr);
  assert.match(bad.stderr, /notify\.webhook.*http/);
});

test('a webhook redirect is followed only to the same origin with the body kept; the line names the answer', async (t) => {
  const dir = tempDir(t);
  const other = await loopback(t);
  const server = await loopback(t, {
    '/away': [307, `${other.url}/stolen`],
    '/moved': [308, `${other.url}/stolen`],
    '/see': [303, '/hook'],
    '/here': [307, '/hook'],
    '/loop': [307, '/loop'],
  });
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[notify]\nwebhook = ${JSON.stringify(['/away', '/moved', '/see', '/here', '/loop'].map((path) => server.url + path))}\ntimeout = "5s"\n`,
  );
  const run = await runDeadman(['notify', 'start', '--name', 'review', '--config', config], {
    env: { ...process.env, STATE_DIRECTORY: dir },
  });
  assert.deepEqual(other.received, [], 'nothing reached the other origin');
  assert.equal(run.code, 1, run.stdout);
  assert.match(
    run.stdout,
    new RegExp(
      `^FAILED webhook: .*/away answered 307, not followed \\(to another origin, ${other.url}/stolen\\)$`,
      'm',
    ),
  );
  assert.match(run.stdout, /^FAILED webhook: .*\/moved answered 308, not followed \(to another origin, /m);
  assert.match(run.stdout, /^FAILED webhook: .*\/see answered 303, not followed \(it would drop the body\)$/m);
  assert.match(run.stdout, /^sent webhook: .*\/here answered 200 at .*\/hook \(after 1 same-origin redirect\)$/m);
  assert.match(
    run.stdout,
    /^FAILED webhook: .*\/loop answered 307 at .*\/loop \(after 3 same-origin redirects\), not followed \(more than 3 redirects\)$/m,
  );
  const hook = server.received.find((r) => r.path === '/hook' && r.headers['content-type'] === 'application/json');
  assert.equal(
    (JSON.parse(hook!.body) as { event: string }).event,
    'start',
    'the same-origin 307 kept the POST and its body',
  );
});
