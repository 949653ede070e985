import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadmanBench, deadmanBin } from './helpers/deadman-env.ts';
import { median, table, type Figure } from './helpers/figures.ts';
import { fleetRow } from './helpers/fleet-row.ts';
import type { FleetRow } from './helpers/figures.ts';
import { clockTicksPerSecond, cpuTicks } from './helpers/proc-sample.ts';
import { sqliteFloorScript } from './helpers/sqlite-floor.ts';

/**
 * What a start of `deadman run -- true` costs against the floor of any Node wrapper that records to
 * SQLite (systemd restarts a unit by starting it again): wall time, median of interleaved runs so a change in machine load hits
 * every case alike, and CPU time (user + system, deadman and `true`), which a busy host
 * disturbs less. With and without `--config`, and for reference unbundled (dist/lib/, as after
 * a plain tsc) and the first start of a name (no revive marker yet). Prints one table; a miss
 * is reported, not failed (benchmarks report, tests assert), so it always returns 0.
 */

const WARMUPS = 2;
const RUNS = 15;
/** Issue 36 (27's 1.3× restated): against the floor (Node opening a WAL database, writing one row, spawning `true`), measured in the same run. */
const TARGET_RATIO = 1.5;

export interface Start {
  argv: string[];
  before?: () => void;
}

export interface Timing {
  wallMs: number;
  cpuMs: number;
}

export async function main(): Promise<number> {
  const bench = deadmanBench('startup');
  try {
    const bundled = existsSync(new URL('../../dist/bundle/main.mjs', import.meta.url));
    // The same start through dist/lib/: what the bundle saves.
    const unbundledEntry = join(bench.dir, 'unbundled.js');
    const compiledMain = new URL('../lib/main.js', import.meta.url).href;
    writeFileSync(
      unbundledEntry,
      `import module from 'node:module';\nmodule.enableCompileCache?.();\nconst { main } = await import(${JSON.stringify(compiledMain)});\nawait main(process.argv.slice(2));\n`,
    );
    const unbundledRun = (...args: string[]) => [unbundledEntry, ...bench.run(...args).slice(1)];
    const marker = join(bench.opts.env.STATE_DIRECTORY!, 'markers', 'true.json');
    process.stdout.write(
      `startup: ${process.execPath} ${process.version}; ${deadmanBin} ${bundled ? 'starts dist/bundle/' : 'has no bundle (npm run build makes one): starts dist/lib/'}\n`,
    );
    const t = timeStarts(
      {
        node: { argv: ['-e', '0'] },
        plain: { argv: bench.run('--', 'true') },
        withConfig: { argv: bench.run('--config', bench.config, '--', 'true') },
        unbundled: { argv: unbundledRun('--', 'true') },
        unbundledConfig: { argv: unbundledRun('--config', bench.config, '--', 'true') },
        fresh: { argv: bench.run('--', 'true'), before: () => rmSync(marker, { force: true }) },
        floor: { argv: ['--input-type=module', '-e', floorScript(join(bench.dir, 'floor.db'))] },
      },
      bench.opts,
    );
    const row = (what: string, x: Timing, base: Timing, target: boolean): Figure => ({
      what,
      value: `${x.wallMs.toFixed(0)} / ${base.wallMs.toFixed(0)} ms = ${(x.wallMs / base.wallMs).toFixed(2)}× (CPU ${x.cpuMs.toFixed(0)} / ${base.cpuMs.toFixed(0)} ms = ${(x.cpuMs / base.cpuMs).toFixed(2)}×)`,
      target: target ? `≤ ${TARGET_RATIO}×` : '',
      pass: target ? x.wallMs / base.wallMs <= TARGET_RATIO : null,
    });
    process.stdout.write(
      table([
        row('start-up `run -- true` / floor', t.plain, t.floor, true),
        row('start-up `run --config F -- true` / floor', t.withConfig, t.floor, true),
        row('  reference: `run -- true` unbundled (dist/lib) / floor', t.unbundled, t.floor, false),
        row('  reference: `run --config F -- true` unbundled / floor', t.unbundledConfig, t.floor, false),
        row('  reference: first start of a name (no marker) / floor', t.fresh, t.floor, false),
        row(
          '  floor: Node opening a WAL database, writing a row, spawning `true` / `node -e 0`',
          t.floor,
          t.node,
          false,
        ),
      ]),
    );
    process.stdout.write(
      `  (wall: median of ${RUNS} after ${WARMUPS} warm-ups, interleaved; CPU: mean user+system of the same runs)\n`,
    );
    return 0;
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

/** Issue 36's row (bench/fleet.ts): a start of `run -- true` beside its floor, measured in the same run. */
export async function fleetRows(): Promise<FleetRow[]> {
  const bench = deadmanBench('startup-fleet');
  try {
    const t = timeStarts(
      {
        run: { argv: bench.run('--', 'true') },
        floor: { argv: ['--input-type=module', '-e', floorScript(join(bench.dir, 'floor.db'))] },
      },
      bench.opts,
    );
    return [
      fleetRow(
        '`deadman run -- true` (median wall)',
        t.run,
        t.floor,
        'node + WAL database + one row + spawn `true`',
        TARGET_RATIO,
      ),
    ];
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

/** The SQLite floor spawning `true` with pipes, one row written, waiting for it. */
function floorScript(database: string): string {
  return sqliteFloorScript(
    database,
    "insertRow();\n    spawn('true', { stdio: ['ignore', 'pipe', 'pipe'] }).on('close', () => db.close());",
  );
}

/**
 * Wall time and CPU time of each start. A start's CPU is read from this process's cutime +
 * cstime (children waited for), which spawnSync's wait adds the child's to; at 10 ms a tick it
 * is summed over all runs, then divided.
 */
export function timeStarts<K extends string>(
  cases: Record<K, Start>,
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Record<K, Timing> {
  const entries = Object.entries(cases) as Array<[K, Start]>;
  const walls = new Map<K, number[]>(entries.map(([key]) => [key, []]));
  const ticks = new Map<K, number>(entries.map(([key]) => [key, 0]));
  for (let round = 0; round < WARMUPS + RUNS; round++) {
    for (const [key, { argv, before }] of entries) {
      before?.();
      const reapedBefore = cpuTicks('self').reaped;
      const started = performance.now();
      const result = spawnSync(process.execPath, argv, {
        ...opts,
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      });
      const elapsed = performance.now() - started;
      if (result.status !== 0)
        throw new Error(`${argv.join(' ')} ended ${result.status ?? result.signal}: ${result.stderr}`);
      if (round < WARMUPS) continue;
      walls.get(key)!.push(elapsed);
      ticks.set(key, ticks.get(key)! + cpuTicks('self').reaped - reapedBefore);
    }
  }
  const msPerTick = 1000 / clockTicksPerSecond();
  return Object.fromEntries(
    entries.map(([key]) => [key, { wallMs: median(walls.get(key)!), cpuMs: (ticks.get(key)! * msPerTick) / RUNS }]),
  ) as Record<K, Timing>;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
