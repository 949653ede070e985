import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { processKey } from '../../../lib/core/process/process-info.ts';
import { findHungSubtree } from '../../../lib/core/detect/hung.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { activityFloors } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { createLinuxObserver } from '../../../lib/io/process/proc-linux.ts';
import { startTree } from '../../helpers/process-tree.ts';
import { startHostNoise } from '../../helpers/liveness-cases.ts';
import { measureHostDelay } from '../../helpers/host-delay.ts';

/**
 * The hung detector on real trees, with the default activity floors (500 ms of CPU or
 * 512 KiB of I/O per 10 s): tools that only tick — a `sleep 1` polling loop, a process waking
 * twice a second for a millisecond of work — are hung; tools working above the floors — a
 * 100 KB/s writer, a CPU-bound one, a make-like loop whose CPU is all in children reaped
 * between polls — are not. Every hung target of each poll is collected, not only the first.
 */

const HUNG_TIMEOUT_MS = 1_500;
const POLL_MS = 200;

const TOOLS = {
  ticker: `while :; do sleep 1; done`,
  sipper: `exec python3 -c 'import time
while True:
    time.sleep(0.5); sum(range(2000))'`,
  writer: `exec python3 -c 'import time
f = open("/dev/null", "w")
while True:
    f.write("x" * 20000); f.flush(); time.sleep(0.2)'`,
  spinner: 'exec yes > /dev/null',
  builder: `while :; do python3 -c 'sum(range(3000000))'; done`,
};
const HUNG = new Set(['ticker', 'sipper']);

test(
  'the hung detector judges real tool commands by the activity floors, not by any tick',
  { timeout: 120_000 },
  async (t) => {
    t.after(startHostNoise());
    const names = Object.keys(TOOLS) as Array<keyof typeof TOOLS>;
    // Each tool in its own session, as an agent starts its tool commands.
    const script =
      names.map((name) => `setsid sh -c '${TOOLS[name].replaceAll("'", `'"'"'`)}' & echo $!`).join('\n') + '\nwait';
    const tree = startTree(t, '/bin/sh', ['-c', script]);
    const pids = new Map<number, string>();
    for (const name of names) {
      const pid = Number(await tree.nextLine());
      tree.adopt(pid);
      pids.set(pid, name);
    }
    const observer = createLinuxObserver({ rootPid: tree.pid, useCgroup: false, monotonic: systemClock.monotonic });
    const floors = activityFloors(DEFAULT_CONFIG.activity);
    const options = {
      hungTimeoutMs: HUNG_TIMEOUT_MS,
      lastOutputAt: systemClock.monotonic(),
      ignore: [],
      openTools: [],
      firstToolAt: null,
      requireOpenTool: false,
    };
    let progress = emptyProgress;
    const found = new Set<string>();
    // Judged for 3 × hung_timeout at least, and until the ticking tools were found: how soon
    // depends on how long a loaded host takes to start them (a python start-up is work), so
    // the deadline is an idle host's 3 × hung_timeout at the pace this one ran.
    const host = measureHostDelay();
    const judgedFor = () => systemClock.monotonic() - options.lastOutputAt;
    for (
      ;
      judgedFor() < 3 * HUNG_TIMEOUT_MS || (found.size < HUNG.size && judgedFor() < host.scaled(3 * HUNG_TIMEOUT_MS));
      await delay(POLL_MS)
    ) {
      const observation = observer.observe();
      progress = updateProgress(progress, observation, floors);
      // Each finding is set aside (as a baseline helper) to see the next one.
      const setAside = new Set<string>();
      for (
        let finding = findHungSubtree(observation, progress, { ...options, baseline: setAside });
        finding;
        finding = findHungSubtree(observation, progress, { ...options, baseline: setAside })
      ) {
        const name = pids.get(finding.target.pid) ?? `pid ${finding.target.pid}`;
        assert.ok(HUNG.has(name), `${name} taken for hung: ${finding.reason}`);
        found.add(name);
        setAside.add(processKey(finding.target));
      }
    }
    assert.deepEqual([...found].sort(), [...HUNG].sort(), 'both tools that only tick were found hung');
  },
);
