import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runKillTrials } from '../test/helpers/kill-trials.ts';

/**
 * 200 random SIGKILLs of `deadman run` (while it starts, records events, finishes); after each:
 * markers parse or are absent, `PRAGMA integrity_check` is ok, and the next run starts.
 * Prints how many trials held. Exit 1 if any did not.
 */

const TRIALS = 200;

export async function main(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'deadman-kill-trials-'));
  try {
    const started = performance.now();
    const { trials, failures } = await runKillTrials(root, TRIALS, 4);
    process.stdout.write(
      `kill trials: ${trials - failures.length}/${trials} held (marker parses or absent, integrity_check ok, next run starts) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    for (const failure of failures) process.stdout.write(`  ${failure}\n`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
