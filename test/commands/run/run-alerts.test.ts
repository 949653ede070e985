import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir, waitFor } from '../../helpers/cli.ts';
import { query } from '../../helpers/db.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { FAKE_CODEX_COMMAND, fakeAgent, REPEATS_UNDER_LOAD } from '../../helpers/fake-agent.ts';
import { loopbackSink, silentSink, type Received } from '../../helpers/loopback-sink.ts';
import { PLANTED, PLANTED_TEXT } from '../../helpers/planted-secrets.ts';
import { measureHostDelay } from '../../helpers/host-delay.ts';

/**
 * `deadman run` alerts by itself — no `deadman notify` anywhere here: a stall, an approval wait
 * and an escalation each reach a webhook and a healthchecks-style sink on loopback, with the
 * secrets the work printed redacted; `deadman notify` from OnFailure= does not repeat them.
 */

interface AlertBody {
  event: string;
  source: string;
  at: string;
  exit_code: number | null;
  outcome: string | null;
  code: string | null;
  reason: string | null;
  incident: { id: number; kind: string; state: string; error_code: string | null } | null;
  commands: string[];
  reminder: number;
  output_tail: string[];
}

function setup(t: { after(fn: () => void): void }, url: string, extra = '') {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  // Long enough for the test's own loopback sink on a busy host; the timeout's cost is tested with a dead sink below.
  writeFileSync(
    config,
    `[notify]\nwebhook = ["${url}/hook"]\nhealthchecks = "${url}/ping/abc"\ntimeout = "20s"\n${extra}`,
  );
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: '',
    WATCHDOG_USEC: '',
    JOURNAL_STREAM: '',
    INVOCATION_ID: 'inv-run-1',
    PLANTED_TEXT,
    MY_SERVICE_TOKEN: PLANTED.envSecret,
  };
  return { dir, config, env };
}

const hooks = (received: readonly Received[]) =>
  received.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body) as AlertBody);
const pings = (received: readonly Received[]) => received.filter((r) => r.path.startsWith('/ping/abc'));

function assertNoSecret(received: readonly Received[]): void {
  const leaked = Object.entries(PLANTED).filter(([, secret]) => received.some((r) => r.body.includes(secret)));
  assert.deepEqual(
    leaked.map(([shape]) => shape),
    [],
  );
}

const PRINT_SECRETS = 'printf "%s\\n" "$PLANTED_TEXT"; echo "$MY_SERVICE_TOKEN"; echo last words';

test("a stall: the escalated incident and the fail with exit 75 and the output's tail reach both sinks, secrets redacted; OnFailure's notify does not repeat the fail", async (t) => {
  const sink = await loopbackSink(t);
  const { config, env } = setup(t, sink.url);
  const run = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--name',
      'review',
      '--inactivity',
      '1s',
      '--poll',
      '100ms',
      '--stop-grace',
      '1s',
      '--',
      'sh',
      '-c',
      `${PRINT_SECRETS}; exec sleep 30`,
    ],
    { env },
  );
  assert.equal(run.code, 75, run.stderr);
  const [incident, fail] = hooks(sink.received);
  assert.deepEqual(
    [incident?.event, incident?.source, incident?.incident?.kind, incident?.incident?.state],
    ['incident', 'run', 'OUTPUT_INACTIVITY', 'ESCALATED'],
  );
  assert.deepEqual(
    [fail?.event, fail?.exit_code, fail?.outcome, fail?.output_tail.at(-1)],
    ['fail', 75, 'stalled', 'last words'],
  );
  assert.ok(
    fail!.output_tail.some((line) => line.includes('[REDACTED]')),
    JSON.stringify(fail!.output_tail),
  );
  const [stallPing, failPing] = pings(sink.received);
  assert.equal(stallPing?.path, '/ping/abc/fail', 'a person is needed: the check goes down');
  assert.match(
    stallPing!.body,
    /^deadman review on \S+: incident · incident #\d+ OUTPUT_INACTIVITY ESCALATED: no output for/,
  );
  assert.equal(failPing?.path, '/ping/abc/75');
  assert.match(failPing!.body, /: fail · exit 75 · .*\n\n[\s\S]*\[REDACTED\][\s\S]*\nlast words$/);
  assertNoSecret(sink.received);
  assert.match(run.stderr, /alert ".*fail · exit 75.*": sent to webhook, healthchecks/);

  const sent = sink.received.length;
  const notify = (invocation: string, status: string) =>
    runDeadman(['notify', 'fail', '--name', 'review', '--config', config], {
      env: { ...env, MONITOR_EXIT_STATUS: status, MONITOR_INVOCATION_ID: invocation },
    });
  const onFailure = await notify('inv-run-1', '75');
  assert.equal(onFailure.code, 0, onFailure.stderr);
  assert.match(onFailure.stdout, /^skipped: review\/fail\/75: the run sent it itself$/m);
  assert.equal(sink.received.length, sent, 'nothing sent again');
  // The next start's deadman was aborted by the watchdog before it could send anything.
  const afterDeath = await notify('inv-died', 'ABRT');
  assert.equal(afterDeath.code, 0, afterDeath.stderr);
  assert.deepEqual(
    pings(sink.received.slice(sent)).map((p) => p.path),
    ['/ping/abc/fail'],
    'a run that could not send: notify sends',
  );
});

test('an approval wait: the alert names the approve/deny commands as typed, a reminder follows, and the typed approve works', async (t) => {
  const sink = await loopbackSink(t);
  const { dir, config, env } = setup(t, sink.url, 'reminder = "1s"\n');
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--config',
      config,
      '--adapter',
      'codex',
      '--poll',
      '250ms',
      '--hung-timeout',
      '2s',
      '--kill-grace',
      '1s',
      '--stop-grace',
      '1s',
      '--inactivity',
      '1min',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests',
    ],
    {
      env: { ...env, FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: 'sleep 600' },
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  t.after(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const approval = await waitFor(
    () => hooks(sink.received).find((a) => a.incident?.state === 'AWAITING_APPROVAL'),
    15_000,
    'the approval alert',
  );
  const id = approval.incident!.id;
  assert.deepEqual(approval.commands, [
    `deadman approve ${id} --state-dir ${dir}`,
    `deadman deny ${id} --state-dir ${dir}`,
  ]);
  const ping = await waitFor(() => pings(sink.received)[0], 5_000, 'the ping');
  assert.equal(ping.path, '/ping/abc/fail');
  assert.match(
    ping.body,
    new RegExp(
      `HUNG_PROCESS AWAITING_APPROVAL: .* · answer: deadman approve ${id} --state-dir \\S+ or deadman deny ${id}`,
    ),
  );
  const reminder = await waitFor(() => hooks(sink.received).find((a) => a.reminder === 1), 5_000, 'a reminder');
  assert.equal(reminder.incident?.id, id);
  // Typed by a person: no $STATE_DIRECTORY in their shell.
  const [, verb, ...args] = approval.commands[0]!.split(' ');
  const approved = await runDeadman([verb!, ...args], {
    env: { ...process.env, STATE_DIRECTORY: '', DEADMAN_CONFIG: '' },
  });
  assert.equal(approved.code, 0, approved.stderr);
  assert.equal(await exited, 0, stderr);
  assert.ok(
    hooks(sink.received).every((a) => a.event === 'incident' && a.incident?.state === 'AWAITING_APPROVAL'),
    'nothing else went out',
  );
});

test('an escalation: green but dead (exit 0, its evidence missing) reaches both sinks as EVIDENCE_FAILED and exit 65', async (t) => {
  const sink = await loopbackSink(t);
  const { dir, config, env } = setup(t, sink.url, '');
  writeFileSync(
    config,
    `${readFileSync(config, 'utf8')}[[evidence]]\nname = "report"\nkind = "file"\nroot = "${dir}"\npath = "${dir}/report.csv"\n`,
  );
  const run = await runDeadman(
    ['run', '--config', config, '--name', 'export', '--poll', '100ms', '--', 'sh', '-c', PRINT_SECRETS],
    { env },
  );
  assert.equal(run.code, 65, run.stderr);
  assert.deepEqual(
    hooks(sink.received).map((a) => [a.event, a.incident?.kind ?? a.exit_code, a.incident?.state ?? a.outcome]),
    [
      ['incident', 'EVIDENCE_FAILED', 'ESCALATED'],
      ['fail', 65, 'green-but-dead'],
    ],
  );
  assert.deepEqual(
    pings(sink.received).map((p) => p.path),
    ['/ping/abc/fail', '/ping/abc/65'],
  );
  assert.match(pings(sink.received)[0]!.body, /EVIDENCE_FAILED ESCALATED: .*report\.csv/);
  assertNoSecret(sink.received);
});

test('an escalation while the run goes on: a repeat denied after its resume failed the same way reaches both sinks at once, with its error code', async (t) => {
  const sink = await loopbackSink(t);
  const { dir, config, env } = setup(t, sink.url, 'events = ["fail", "success", "incident"]\n');
  // The agent's work tree, outside the state directory: deadman's own writes are no workspace change.
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  // A failing test run again and again; resumed, the same again (a second resume is denied: ESCALATED), and the run goes on to a turn
  // that prints the secrets and completes.
  const run = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--name',
      'parser',
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--auto-recover',
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: {
        ...env,
        FAKE_AGENT_SCENARIO: 'repeat-failure',
        FAKE_AGENT_FAIL_RESUMED: '1',
        FAKE_AGENT_REPEATS: REPEATS_UNDER_LOAD,
        FAKE_AGENT_TOOL: PRINT_SECRETS,
      },
      cwd: repo,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  const alerts = hooks(sink.received);
  const escalated = alerts.find((a) => a.incident?.kind === 'REPEATED_FAILURE' && a.incident.state === 'ESCALATED');
  assert.ok(escalated, JSON.stringify(alerts.map((a) => [a.event, a.incident?.kind, a.incident?.state])));
  assert.deepEqual(
    [escalated.event, escalated.source, escalated.incident!.error_code, escalated.code],
    ['incident', 'run', 'repeated_failure', 'repeated_failure'],
  );
  // Denied as a repeat: the resume was already tried for this failure, so a person must look.
  assert.match(
    escalated.reason ?? '',
    /^CANCEL_AND_RESUME was already taken for this stall and target in this run .* a person must look$/,
  );
  // Sent while the run went on: before the run's end, and before its success.
  const [end] = query<{ ended_at: number }>(join(dir, 'deadman.db'), 'SELECT MAX(ended_at) AS ended_at FROM runs');
  assert.ok(
    Date.parse(escalated.at) < end!.ended_at,
    `alert at ${escalated.at}, run ended ${new Date(end!.ended_at).toISOString()}`,
  );
  // Its further reruns make no progress either: recorded for a person, the run still going on.
  const noProgress = alerts.find((a) => a.incident?.kind === 'NO_PROGRESS');
  assert.deepEqual(
    [noProgress?.incident?.state, noProgress?.incident?.error_code],
    ['AWAITING_APPROVAL', 'no_progress'],
  );
  assert.match(noProgress!.commands[0] ?? '', /^deadman approve \d+ --state-dir /);
  const success = alerts.findIndex((a) => a.event === 'success');
  assert.ok(
    alerts.indexOf(escalated) < success && alerts.indexOf(noProgress!) < success,
    'both went out before the run ended',
  );
  assert.ok(
    alerts[success]!.output_tail.some((line) => line.includes('[REDACTED]')),
    'the secrets were in the output',
  );
  assert.ok(
    pings(sink.received).some((p) => p.path === '/ping/abc/fail' && /REPEATED_FAILURE ESCALATED/.test(p.body)),
    'the check goes down: a person is needed',
  );
  assertNoSecret(sink.received);
});

/** Gaps (ms) between consecutive times. */
const gaps = (times: readonly number[]) => times.slice(1).map((time, i) => time - times[i]!);

test('a dead sink (accepts the connection, never answers) delays no watchdog ping and no output line', async (t) => {
  const dead = await silentSink(t);
  const dir = tempDir(t);
  const socket = join(dir, 'notify.sock');
  const receiver = spawn('python3', [fixturePath('notify-receiver.py'), socket], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => receiver.kill('SIGKILL'));
  let messages = '';
  receiver.stdout.setEncoding('utf8').on('data', (text: string) => (messages += text));
  await waitFor(() => messages.includes('listening'), 5_000, 'the notify socket');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[notify]\nwebhook = ["${dead.url}/hook"]\nhealthchecks = "${dead.url}/ping"\ntimeout = "4s"\nevents = ["start", "success", "fail", "incident"]\n`,
  );
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: socket,
    WATCHDOG_USEC: '1000000',
    WATCHDOG_PID: '',
    JOURNAL_STREAM: '',
  };
  const host = measureHostDelay();
  const started = performance.now();
  const lines: number[] = [];
  const run = await runProgram(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--config',
      config,
      '--name',
      'ticker',
      '--poll',
      '100ms',
      '--',
      process.execPath,
      '-e',
      'let i = 0; const tick = setInterval(() => { console.log(i++); if (i === 30) clearInterval(tick); }, 100);',
    ],
    {
      env,
      onStdout: (text) => {
        while (lines.length < text.split('\n').length - 1) lines.push(performance.now());
      },
    },
  );
  const took = performance.now() - started;
  assert.equal(run.code, 0, run.stderr);
  assert.ok(dead.accepted() >= 4, 'start and success each reached both sinks of the dead host');
  assert.match(run.stderr, /FAILED webhook http:\/\/127\.0\.0\.1:\d+\/hook: no answer within 4000 ms; healthchecks/);
  const pingTimes = messages
    .split('\n')
    .filter((line) => line.endsWith(' WATCHDOG=1'))
    .map((line) => Number(line.split(' ')[0]));
  const worstPing = Math.max(...gaps(pingTimes));
  const worstLine = Math.max(...gaps(lines));
  process.stdout.write(
    `# dead sink: ping gaps ${gaps(pingTimes)
      .map((g) => g.toFixed(0))
      .join(' ')} ms; worst output gap ${worstLine.toFixed(0)} ms; run ${took.toFixed(0)} ms\n`,
  );
  assert.equal(lines.length, 30);
  assert.ok(pingTimes.length >= 10, `${pingTimes.length} pings`);
  // An alert on the loop's path would add up to the 4 s timeout. 1 s is WatchdogSec here: a longer gap, the end's wait for the
  // alerts included, would get deadman killed. (At WatchdogSec 400 ms a host at load 7 alone made a 468 ms gap, with or without sinks.)
  assert.ok(
    worstPing < host.scaled(1_000),
    `a watchdog ping came ${worstPing.toFixed(0)} ms after the one before (every 500 ms, WatchdogSec 1 s) (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  // An alert on the output path would hold a line up to the 4 s timeout; a busy host (load 10) alone was seen to hold one 359 ms.
  assert.ok(
    worstLine < host.scaled(1_000),
    `an output line came ${worstLine.toFixed(0)} ms after the one before (every 100 ms) (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  // The run's end waits for the alerts still on their way (the success went out at ~3 s), at most notify.timeout.
  assert.ok(
    took < 3_000 + 4_000 + host.scaled(2_000),
    `took ${took.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
});
