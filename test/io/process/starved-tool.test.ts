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
import { firstAllowedCpu, startHostLoad } from '../../helpers/host-load.ts';
import { skipUnlessInstalled } from '../../helpers/required-tool.ts';

const HUNG_TIMEOUT_MS = 1_500;
const POLL_MS = 200;
const BUSY_LOOPS = 3;

// A CPU-bound tool at nice 12, pinned with three busy loops to one CPU: it gets about 2 % of
// it (~17 ms a second measured, a third of the 50 ms floor) and waits for it the rest of the
// time. Its session's autogroup is niced too, where the kernel groups sessions (autogroup).
// Lower (nice 19) it ran once in 1-2 s: the kernel adds a wait to schedstat when it ends, so
// its work showed less often than hung_timeout here.
const STARVED = `echo 12 > /proc/self/autogroup 2>/dev/null; exec nice -n 12 sh -c 'while :; do :; done'`;

test(
  'a CPU-bound tool starved by busy loops is not hung; a sleeping tool beside it is',
  { timeout: 60_000, skip: skipUnlessInstalled('taskset') },
  async (t) => {
    const cpu = firstAllowedCpu();
    t.after(startHostLoad({ busyLoops: BUSY_LOOPS, cpu }));
    const tools = { starved: STARVED, sleeping: 'exec sleep 600' };
    const script =
      Object.values(tools)
        .map((tool) => `setsid taskset -c ${cpu} sh -c "${tool.replaceAll('"', '\\"')}" & echo $!`)
        .join('\n') + '\nwait';
    const tree = startTree(t, '/bin/sh', ['-c', script]);
    const names = new Map<number, string>();
    for (const name of Object.keys(tools)) {
      const pid = Number(await tree.nextLine());
      tree.adopt(pid);
      names.set(pid, name);
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
    let cpuTicks = { first: -1, last: -1 };
    // Judged over 3 × hung_timeout of polls that happened, however late the host ran them.
    for (
      let polls = 0;
      polls < (3 * HUNG_TIMEOUT_MS) / POLL_MS || systemClock.monotonic() < options.lastOutputAt + 3 * HUNG_TIMEOUT_MS;
      polls++, await delay(POLL_MS)
    ) {
      const observation = observer.observe();
      progress = updateProgress(progress, observation, floors);
      const starved = observation.processes.find((p) => names.get(p.pid) === 'starved');
      if (starved) cpuTicks = { first: cpuTicks.first < 0 ? starved.cpuTicks : cpuTicks.first, last: starved.cpuTicks };
      const setAside = new Set<string>();
      for (
        let finding = findHungSubtree(observation, progress, { ...options, baseline: setAside });
        finding;
        finding = findHungSubtree(observation, progress, { ...options, baseline: setAside })
      ) {
        found.add(names.get(finding.target.pid) ?? `pid ${finding.target.pid}`);
        setAside.add(processKey(finding.target));
      }
    }
    const spentMs = (cpuTicks.last - cpuTicks.first) * 10;
    assert.ok(
      spentMs < (3 * HUNG_TIMEOUT_MS * DEFAULT_CONFIG.activity.cpu) / DEFAULT_CONFIG.activity.window,
      `the tool got ${spentMs} ms of CPU: above the floor, so not starved (the test proves nothing)`,
    );
    assert.deepEqual([...found], ['sleeping']);
  },
);
