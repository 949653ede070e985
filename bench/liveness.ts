import { pathToFileURL } from 'node:url';
import {
  hungToolKillDelay,
  INACTIVITY_MS,
  LIVENESS_CASES,
  runCase,
  startHostNoise,
  HUNG_TIMEOUT_MS,
} from '../test/helpers/liveness-cases.ts';

/**
 * `npm run bench` part: liveness under busy-host noise (a tree exec'ing /bin/true every 0.3 s
 * and a busy core). Prints the detection latency beyond the threshold (median of 5 runs) for
 * the inactivity stall and the hung tool, and the false-stall / missed-stall counts over the
 * cases of test/helpers/liveness-cases.ts.
 */

const RUNS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function main(): Promise<number> {
  const stopNoise = startHostNoise();
  // Each run's directory (a tar of /usr among them) goes as soon as the bench ends.
  const cleanups: Array<() => void> = [];
  const t = { after: (fn: () => void) => cleanups.push(fn) };
  try {
    let falseStalls = 0;
    let missedStalls = 0;
    const inactivityLatencies: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const results = await Promise.all(LIVENESS_CASES.map(async (c) => ({ c, result: await runCase(c, t) })));
      for (const { c, result } of results) {
        if (c.expect === 'survive' && result.stalled) falseStalls++;
        if (c.expect === 'stall' && !result.stalled) missedStalls++;
        if (c.expect === 'stall' && result.latencyBeyondMs !== null) inactivityLatencies.push(result.latencyBeyondMs);
      }
    }
    const hungLatencies: number[] = [];
    let hungMissed = 0;
    for (let run = 0; run < RUNS; run++) {
      const { delayMs } = await hungToolKillDelay(t);
      if (delayMs === null) hungMissed++;
      else hungLatencies.push(delayMs - HUNG_TIMEOUT_MS);
    }
    const cases = LIVENESS_CASES.length * RUNS;
    process.stdout.write(
      [
        `liveness (${RUNS} runs of ${LIVENESS_CASES.length} cases under busy-host noise, inactivity ${INACTIVITY_MS} ms, hung_timeout ${HUNG_TIMEOUT_MS} ms)`,
        `  inactivity stall latency beyond the limit: median ${inactivityLatencies.length ? median(inactivityLatencies).toFixed(0) : '-'} ms (of ${inactivityLatencies.length})`,
        `  hung tool killed beyond hung_timeout:      median ${hungLatencies.length ? median(hungLatencies).toFixed(0) : '-'} ms (of ${hungLatencies.length}), missed ${hungMissed}`,
        `  false stalls: ${falseStalls} of ${LIVENESS_CASES.filter((c) => c.expect === 'survive').length * RUNS}; missed stalls: ${missedStalls} of ${LIVENESS_CASES.filter((c) => c.expect === 'stall').length * RUNS} (${cases} runs)`,
        '',
      ].join('\n'),
    );
    return falseStalls + missedStalls + hungMissed === 0 ? 0 : 1;
  } finally {
    stopNoise();
    for (const cleanup of cleanups) cleanup();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
