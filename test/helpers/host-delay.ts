import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * How slowly the host runs what wants a CPU. Two threads of this test process are measured
 * by their CPU time and run-queue wait (/proc/<pid>/task/<tid>/schedstat): the test's own
 * thread, as it runs (read at once, so a span has a reading from its first moment), and a
 * meter thread that works SPIN_MS and sleeps SLEEP_MS over and over, started with the first
 * measure (so it measures on while the test's thread is blocked in spawnSync). Over a span
 * the stretch is (CPU + wait) / CPU: 1 on an idle host, 3–16 at a load of 8–18 on 2 cores. A
 * test's wall-time bound is its figure on an idle host times the stretch over the test
 * (`scaled`): deadman, its tools and its killers need a CPU at each step, and the host makes
 * them wait as it made these threads wait. The meter costs ~2 % of a core and does not keep
 * the process alive. Where schedstat is missing (macOS) the stretch is 1.
 */
const SPIN_MS = 1;
const SLEEP_MS = 49;

export interface HostDelay {
  /** (CPU + run-queue wait) / CPU of both threads since the measure began; 1 before any reading. */
  stretch(): number;
  /** `idleMs` at the pace the host ran since the measure began: `idleMs × stretch()`. */
  scaled(idleMs: number): number;
  /** Milliseconds since the measure began, divided by the stretch: a deadline on it is an idle host's. */
  clock(): number;
}

/** [CPU ns, wait ns] of the meter since it started, written by the meter. */
let counters: BigInt64Array | null = null;

function meter(): BigInt64Array {
  if (counters) return counters;
  counters = new BigInt64Array(new SharedArrayBuffer(16));
  const worker = new Worker(
    `
    const { workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const counters = new BigInt64Array(workerData);
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    const read = () => { try { return readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').slice(0, 2).map(BigInt); } catch { return null; } };
    const first = read();
    for (;;) {
      for (const until = performance.now() + ${SPIN_MS}; performance.now() < until;);
      Atomics.wait(sleeper, 0, 0, ${SLEEP_MS});
      const now = read();
      if (first && now) { Atomics.store(counters, 1, now[1] - first[1]); Atomics.store(counters, 0, now[0] - first[0]); }
    }`,
    { eval: true, workerData: counters.buffer },
  );
  worker.unref();
  return counters;
}

/** CPU ns and run-queue wait ns of the calling thread, or null without schedstat. */
function ownCounters(): [number, number] | null {
  try {
    const [cpu, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return [cpu!, wait!];
  } catch {
    return null;
  }
}

/** Starts measuring (the meter thread runs on for the whole process once started). */
export function measureHostDelay(): HostDelay {
  const shared = meter();
  const read = (): [number, number] => {
    const own = ownCounters() ?? [0, 0];
    return [own[0] + Number(Atomics.load(shared, 0)), own[1] + Number(Atomics.load(shared, 1))];
  };
  const [cpuAtStart, waitAtStart] = read();
  const startedAt = performance.now();
  const stretch = () => {
    const [cpu, wait] = read();
    return cpu > cpuAtStart ? 1 + (wait - waitAtStart) / (cpu - cpuAtStart) : 1;
  };
  return { stretch, scaled: (idleMs) => idleMs * stretch(), clock: () => (performance.now() - startedAt) / stretch() };
}
