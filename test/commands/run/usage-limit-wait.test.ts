import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForUsageReset, type UsageWaitDeps } from '../../../lib/commands/run/usage-limit-wait.ts';
import { launchdExitCode } from '../../../lib/core/units/launchd-exit.ts';
import { createSdNotifier } from '../../../lib/io/service/sd-notify.ts';

/**
 * The usage-limit wait on launchd's code path: no NOTIFY_SOCKET (the notifier is the real one,
 * a quiet no-op), no watchdog, so the wait's own deadline is all that ends it. The clock, the
 * repeater and the stop signals are injected: the test moves the wall clock and fires ticks.
 */

const RESET = Date.UTC(2026, 11, 2, 14, 0, 0);
const limits = { max_wait: 6 * 3_600_000, jitter: 60_000, backoff: 15_000 };
const LIMIT = { resetAt: RESET, throttle: false };
const NONE_BEFORE = { count: 0, waitedMs: 0 };

function launchdWait(startWall: number) {
  const clock = { wall: startWall, monotonic: 0 };
  const ticks: Array<() => void> = [];
  const stopped: string[] = [];
  const logged: string[] = [];
  let raise: (signal: NodeJS.Signals) => void = () => {};
  const notifier = createSdNotifier({});
  const sent: string[] = [];
  const deps: UsageWaitDeps = {
    clock: { wall: () => clock.wall, monotonic: () => clock.monotonic },
    notifier: {
      path: notifier.path,
      detail: notifier.detail,
      send: (message) => {
        sent.push(message);
        notifier.send(message);
      },
    },
    logger: { log: (level, message) => logged.push(`${level} ${message}`) },
    watchdogUsec: null,
    every: (ms, run) => {
      assert.ok(ms <= 1_000, `the deadline is looked at every second at least (${ms} ms)`);
      ticks.push(run);
      return () => stopped.push('ticks');
    },
    signals: (onSignal) => {
      raise = onSignal;
      return () => stopped.push('signals');
    },
    random: () => 0.5,
  };
  const tick = () => ticks.forEach((run) => run());
  return { clock, deps, tick, stopped, logged, sent, raise: (signal: NodeJS.Signals) => raise(signal) };
}

/** Whether the promise has settled, after the microtasks queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('launchd: the wait resumes when the wall clock reaches the reset plus jitter, not a tick before, with the reset time in its status', async () => {
  const wait = launchdWait(RESET - 3 * 3_600_000 - 20 * 60_000);
  assert.equal(wait.deps.notifier.path, 'none', 'no notify socket under launchd');
  const ended = waitForUsageReset(LIMIT, NONE_BEFORE, limits, wait.deps);
  assert.ok(
    wait.logged.includes('notice waiting for usage limit reset at 14:00:30 UTC (in 3h 20min 30s)'),
    wait.logged.join('\n'),
  );
  wait.clock.wall = RESET + 29_999;
  wait.tick();
  assert.equal(await settled(ended), false, 'still waiting 1 ms before reset + jitter');
  wait.clock.wall = RESET + 30_000;
  wait.tick();
  assert.deepEqual(await ended, { resume: true, backoffMs: null });
  assert.deepEqual(wait.stopped.sort(), ['signals', 'ticks']);
  assert.ok(!wait.sent.some((message) => message.includes('WATCHDOG')), 'no watchdog to feed');
});

test('launchd: a Mac asleep through the reset resumes at the first tick after waking (the wall clock decides, not a monotonic timer)', async () => {
  const wait = launchdWait(RESET - 3_600_000);
  const ended = waitForUsageReset(LIMIT, NONE_BEFORE, limits, wait.deps);
  // Asleep for two hours: the monotonic clock stood still, the wall clock did not.
  wait.clock.wall = RESET + 3_600_000;
  wait.tick();
  assert.deepEqual(await ended, { resume: true, backoffMs: null });
});

test('launchd: the status names the time left, again every 30 s of wall time', async () => {
  const wait = launchdWait(RESET - 120_000);
  const ended = waitForUsageReset(LIMIT, NONE_BEFORE, { ...limits, jitter: 0 }, wait.deps);
  wait.clock.wall += 29_000;
  wait.tick();
  wait.clock.wall += 1_000;
  wait.tick();
  wait.raise('SIGTERM');
  await ended;
  assert.deepEqual(wait.sent, [
    'STATUS=waiting for usage limit reset at 14:00 UTC (in 2min)',
    'STATUS=waiting for usage limit reset at 14:00 UTC (in 1min 30s)',
  ]);
});

test('launchd: a stop signal (launchctl bootout sends SIGTERM) ends the wait with 75 and the signal, to be re-raised', async () => {
  const wait = launchdWait(RESET - 60_000);
  const ended = waitForUsageReset(LIMIT, NONE_BEFORE, limits, wait.deps);
  wait.raise('SIGTERM');
  assert.deepEqual(await ended, { resume: false, exitCode: 75, reraise: 'SIGTERM' });
  assert.deepEqual(wait.stopped.sort(), ['signals', 'ticks']);
});

test('launchd: a reset beyond usage_limit.max_wait is not waited for; its 69 ends the launchd job with 0, so KeepAlive does not restart it', async () => {
  const wait = launchdWait(RESET - 7 * 3_600_000);
  const ended = await waitForUsageReset(LIMIT, NONE_BEFORE, limits, wait.deps);
  assert.deepEqual(ended, { resume: false, exitCode: 69, reraise: null });
  assert.equal(launchdExitCode(ended.exitCode, 'deadman.review').exitCode, 0);
  assert.match(
    wait.logged.join('\n'),
    /USAGE_LIMIT: not waiting, the limit resets at 14:00 UTC, beyond usage_limit\.max_wait \(6h\) from now/,
  );
});

test("a throttle (not the plan's limit) backs off 15 s, then 30 s, … and resumes; after 4 in a row it gives up with 75 (restart), never 69", async () => {
  const throttle = { resetAt: null, throttle: true };
  const wait = launchdWait(RESET);
  const ended = waitForUsageReset(throttle, NONE_BEFORE, limits, wait.deps);
  assert.match(wait.sent.join('\n'), /STATUS=backing off until 14:00:15 UTC \(in 16s\), then resuming the session/);
  wait.clock.wall = RESET + 15_000;
  wait.tick();
  assert.equal(await settled(ended), false, 'the backoff is spread by up to a tenth (random 0.5: 750 ms)');
  wait.clock.wall = RESET + 15_750;
  wait.tick();
  assert.deepEqual(await ended, { resume: true, backoffMs: 15_750 });
  const second = launchdWait(RESET);
  const doubled = waitForUsageReset(throttle, { count: 1, waitedMs: 15_750 }, limits, second.deps);
  second.clock.wall = RESET + 31_500;
  second.tick();
  assert.deepEqual(await doubled, { resume: true, backoffMs: 31_500 });
  const last = launchdWait(RESET);
  assert.deepEqual(await waitForUsageReset(throttle, { count: 4, waitedMs: 250_000 }, limits, last.deps), {
    resume: false,
    exitCode: 75,
    reraise: null,
  });
  assert.match(
    last.logged.join('\n'),
    /not waiting, the API throttled the agent \(not its usage limit\) again after 4 backoff waits in a row \(exit 75: restart wanted/,
  );
});

test('a plan limit with no reset time ("try again later"): backoff waits from 15 min within max_wait, then 69', async () => {
  const unknown = { resetAt: null, throttle: false };
  const wait = launchdWait(RESET);
  const ended = waitForUsageReset(unknown, NONE_BEFORE, limits, wait.deps);
  assert.match(wait.sent.join('\n'), /backing off until 14:15:45 UTC/);
  wait.raise('SIGTERM');
  await ended;
  const over = launchdWait(RESET);
  assert.deepEqual(
    await waitForUsageReset(
      unknown,
      { count: 3, waitedMs: 105 * 60_000 },
      { ...limits, max_wait: 3 * 3_600_000 },
      over.deps,
    ),
    { resume: false, exitCode: 69, reraise: null },
  );
  assert.match(
    over.logged.join('\n'),
    /the agent gave no reset time, and a backoff of 2h would pass usage_limit\.max_wait \(3h\)/,
  );
});
