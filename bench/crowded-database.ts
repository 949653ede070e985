import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillFinishedRuns } from '../test/helpers/crowded-database.ts';
import { deadmanBench, deadmanBin } from './helpers/deadman-env.ts';
import { table, type Figure } from './helpers/figures.ts';

/**
 * Issue 38.1: a database long past `max_runs` (default 1000) must not delay the command of a
 * `deadman run` — the time from the start of `deadman run` to the command's first output, with
 * 1,501 / 3,001 / 10,001 finished runs in the file (each with its events, observations and one
 * incident with its rows) — and reading 10,000 incidents (status, report, incidents) stays fast.
 * `node dist/bench/crowded-database.js OTHER/bin/deadman.js` measures another build (the old
 * code) on the same files; a start slower than START_LIMIT_MS is cut there and shown as more.
 */

const SIZES = [1_501, 3_001, 10_001];
const START_TARGET_MS = 1_000;
const READ_TARGET_MS = 1_000;
const START_LIMIT_MS = 120_000;

export async function main(entry = deadmanBin): Promise<number> {
  const figures: Figure[] = [];
  for (const runs of SIZES) {
    const bench = deadmanBench('crowded', entry);
    try {
      fillFinishedRuns(join(bench.dir, 'deadman.db'), runs, { endedAt: Date.now() - 60_000 });
      const ms = await firstOutputMs(bench.run('--', 'echo', 'first'), bench.opts);
      figures.push({
        what: `run → first output, ${runs} runs in the database`,
        value: ms === null ? `> ${START_LIMIT_MS / 1000} s (cut)` : `${ms.toFixed(0)} ms`,
        target: `≤ ${START_TARGET_MS} ms`,
        pass: ms !== null && ms <= START_TARGET_MS,
      });
    } finally {
      rmSync(bench.dir, { recursive: true, force: true });
    }
  }
  figures.push(...readTimes(entry, SIZES.at(-1)!));
  process.stdout.write(`crowded database: ${entry}\n${table(figures)}`);
  return 0;
}

/** Milliseconds from the spawn of `deadman run` to the first byte its command prints; null past the limit. */
function firstOutputMs(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, argv, { ...opts, stdio: ['ignore', 'pipe', 'ignore'] });
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, START_LIMIT_MS);
    child.stdout.once('data', () => {
      clearTimeout(limit);
      resolve(performance.now() - started);
    });
    child.once('exit', () => {
      clearTimeout(limit);
      resolve(null);
    });
  });
}

/**
 * The readers on a file of 10,001 runs and as many incidents, kept whole (max_runs above that),
 * after one `deadman run` of the build measured opened it as a run would (a new build adds its
 * indexes then), each reader timed whole, process start included.
 */
function readTimes(entry: string, runs: number): Figure[] {
  const bench = deadmanBench('crowded-reads', entry);
  try {
    const database = join(bench.dir, 'deadman.db');
    fillFinishedRuns(database, runs, { endedAt: Date.now() - 60_000 });
    writeFileSync(bench.config, `[retention]\nmax_runs = ${runs * 2}\n`);
    spawnSync(process.execPath, bench.run('--config', bench.config, '--', 'true'), { ...bench.opts, stdio: 'ignore' });
    return [
      ['status'],
      ['status', '--json'],
      ['incidents'],
      ['report', 'latest'],
      ['report', '1', '--json'],
      ['metrics'],
    ].map((args) => {
      const started = performance.now();
      const result = spawnSync(process.execPath, [entry, ...args, '--database', database], {
        ...bench.opts,
        stdio: 'ignore',
      });
      const ms = performance.now() - started;
      return {
        what: `deadman ${args.join(' ')}, ${runs} incidents (exit ${result.status})`,
        value: `${ms.toFixed(0)} ms`,
        target: `≤ ${READ_TARGET_MS} ms`,
        pass: ms <= READ_TARGET_MS,
      };
    });
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv[2]);
}
