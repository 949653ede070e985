import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseProcStat } from '../lib/core/process/proc-stat.ts';

/**
 * What `deadman run` costs the work it wraps, measured on the real CLI as a unit runs it
 * (no NOTIFY_SOCKET, a private state directory): start-up against bare Node, output
 * passthrough against a direct pipe, deadman's peak RSS while passing output through, and the
 * CPU it burns supervising an idle command. Prints one table; a miss is reported, not failed
 * (benchmarks report, tests assert), so it always returns 0.
 */

const STARTUP_WARMUPS = 2;
const STARTUP_RUNS = 15;
const BLOCK_BYTES = 64 * 1024 * 1024;
const BLOCK_REPEATS = 8;
const THROUGHPUT_RUNS = 3;
const IDLE_SETTLE_MS = 2_000;
const IDLE_MEASURE_MS = 20_000;

const bin = new URL('../../bin/deadman.js', import.meta.url).pathname;

export interface Figure {
  what: string;
  value: string;
  target: string;
  /** null: context for the figure above it, with no target of its own. */
  pass: boolean | null;
}

export async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'deadman-bench-run-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state') };
    for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID', 'INVOCATION_ID', 'DEADMAN_CONFIG']) delete env[key];
    mkdirSync(env.STATE_DIRECTORY!);
    const deadman = (...command: string[]) => [bin, 'run', '--database', join(dir, 'deadman.db'), ...command];
    // Not deadman.toml: that name in the working directory would be found by every run.
    const config = join(dir, 'bench.toml');
    writeFileSync(config, 'inactivity = "10min"\nstop_grace = "5s"\nhung_timeout = "2min"\n');
    const block = join(dir, 'block.bin');
    writeFileSync(block, randomBytes(BLOCK_BYTES));
    const catLoop = ['sh', '-c', `for i in $(seq ${BLOCK_REPEATS}); do cat "$0"; done`, block];
    const catRelay = ['sh', '-c', `for i in $(seq ${BLOCK_REPEATS}); do cat "$0"; done | cat`, block];
    const opts = { cwd: dir, env };

    process.stdout.write(`run-overhead: ${process.execPath} ${process.version}; deadman run with no NOTIFY_SOCKET, state in ${dir}\n`);
    const marker = join(env.STATE_DIRECTORY!, 'markers', 'true.json');
    const { node, fresh, plain, withConfig } = medianWallMs({
      node: { argv: ['-e', '0'] },
      // A name's first run finds no revive marker; every later start (a restart) reads one.
      fresh: { argv: deadman('--', 'true'), before: () => rmSync(marker, { force: true }) },
      plain: { argv: deadman('--', 'true') },
      withConfig: { argv: deadman('--config', config, '--', 'true') },
    }, opts);
    const direct = await throughput(catLoop, opts, false);
    const relay = await throughput(catRelay, opts, false);
    const wrapped = await throughput([process.execPath, ...deadman('--', ...catLoop)], opts, true);
    const idle = await idleCpu([process.execPath, ...deadman('--', 'sleep', '60')], opts);

    const mbps = (r: { mbps: number }) => `${r.mbps.toFixed(0)} MB/s`;
    const megabytes = (kb: number) => `${(kb * 1024 / 1e6).toFixed(1)} MB`;
    const figures: Figure[] = [
      { what: 'start-up `run -- true` / `node -e 0`', value: `${plain.toFixed(0)} / ${node.toFixed(0)} ms = ${(plain / node).toFixed(2)}×`, target: '≤ 2×', pass: plain / node <= 2 },
      { what: '  reference: the same, first run (no revive marker)', value: `${fresh.toFixed(0)} / ${node.toFixed(0)} ms = ${(fresh / node).toFixed(2)}×`, target: '', pass: null },
      { what: 'start-up `run --config F -- true` / `node -e 0`', value: `${withConfig.toFixed(0)} / ${node.toFixed(0)} ms = ${(withConfig / node).toFixed(2)}×`, target: '≤ 2×', pass: withConfig / node <= 2 },
      { what: `passthrough ${BLOCK_BYTES * BLOCK_REPEATS / 2 ** 20} MiB, run / direct pipe`, value: `${mbps(wrapped)} / ${mbps(direct)} = ${(wrapped.mbps / direct.mbps).toFixed(2)}×`, target: '≥ 0.9×', pass: wrapped.mbps / direct.mbps >= 0.9 },
      { what: '  reference: the same through `| cat` / direct', value: `${mbps(relay)} / ${mbps(direct)} = ${(relay.mbps / direct.mbps).toFixed(2)}×`, target: '', pass: null },
      { what: 'peak RSS of deadman during passthrough', value: megabytes(wrapped.peakKb), target: '≤ 60 MB', pass: wrapped.peakKb * 1024 <= 60e6 },
      { what: '  reference: peak RSS supervising idle `sleep 60`', value: megabytes(idle.peakKb), target: '', pass: null },
      { what: `CPU supervising idle \`sleep 60\` (${IDLE_MEASURE_MS / 1000}s)`, value: `${idle.percent.toFixed(2)} % of a core (${idle.cpuMs.toFixed(0)} ms)`, target: '≤ 0.5 %', pass: idle.percent <= 0.5 },
    ];
    process.stdout.write(table(figures));
    process.stdout.write(`  (start-up: median of ${STARTUP_RUNS} after ${STARTUP_WARMUPS} warm-ups, interleaved; passthrough: median of ${THROUGHPUT_RUNS}, first byte to end of stream, read and discarded by the bench)\n`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median wall time of each Node argv, run interleaved so a change in machine load hits all alike. */
function medianWallMs<K extends string>(cases: Record<K, { argv: string[]; before?: () => void }>, opts: { cwd: string; env: NodeJS.ProcessEnv }): Record<K, number> {
  const entries = Object.entries(cases) as Array<[K, { argv: string[]; before?: () => void }]>;
  const times = new Map<K, number[]>(entries.map(([key]) => [key, []]));
  for (let round = 0; round < STARTUP_WARMUPS + STARTUP_RUNS; round++) {
    for (const [key, { argv, before }] of entries) {
      before?.();
      const started = performance.now();
      const result = spawnSync(process.execPath, argv, { ...opts, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      const elapsed = performance.now() - started;
      if (result.status !== 0) throw new Error(`${argv.join(' ')} ended ${result.status ?? result.signal}: ${result.stderr}`);
      if (round >= STARTUP_WARMUPS) times.get(key)!.push(elapsed);
    }
  }
  return Object.fromEntries(entries.map(([key]) => [key, median(times.get(key)!)])) as Record<K, number>;
}

/** MB/s of the argv's stdout, read and discarded here; for deadman also its peak RSS (VmHWM). */
async function throughput(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, sampleRss: boolean): Promise<{ mbps: number; peakKb: number }> {
  const rates: number[] = [];
  let peakKb = 0;
  for (let run = 0; run < THROUGHPUT_RUNS; run++) {
    const child = spawn(argv[0]!, argv.slice(1), { ...opts, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    let firstByteAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      firstByteAt ||= performance.now();
      bytes += chunk.length;
    });
    const sampler = sampleRss ? setInterval(() => (peakKb = Math.max(peakKb, vmHwmKb(child.pid!))), 20) : null;
    const ended = new Promise<void>((resolve) => child.stdout.once('end', resolve));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    await ended;
    const seconds = (performance.now() - firstByteAt) / 1000;
    if (sampler) clearInterval(sampler);
    if (code !== 0 || bytes !== BLOCK_BYTES * BLOCK_REPEATS) throw new Error(`${argv.join(' ')} ended ${code} after ${bytes} bytes`);
    rates.push(bytes / 1e6 / seconds);
  }
  return { mbps: median(rates), peakKb };
}

/** deadman's own utime+stime while its child sleeps, after start-up has settled. */
async function idleCpu(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ percent: number; cpuMs: number; peakKb: number }> {
  const child = spawn(argv[0]!, argv.slice(1), { ...opts, stdio: 'ignore' });
  const closed = new Promise((resolve) => child.once('close', resolve));
  try {
    await sleep(IDLE_SETTLE_MS);
    const ticks = clockTicksPerSecond();
    const before = { cpu: cpuTicks(child.pid!), at: performance.now() };
    await sleep(IDLE_MEASURE_MS);
    const cpuMs = (cpuTicks(child.pid!) - before.cpu) / ticks * 1000;
    return { percent: cpuMs / (performance.now() - before.at) * 100, cpuMs, peakKb: vmHwmKb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

export function cpuTicks(pid: number): number {
  const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (!stat) throw new Error(`cannot parse /proc/${pid}/stat`);
  return stat.cpuTicks;
}

export function vmHwmKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited between samples
  }
}

export function clockTicksPerSecond(): number {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function table(figures: Figure[]): string {
  const width = (pick: (f: Figure) => string) => Math.max(...figures.map((f) => pick(f).length));
  const [w, v, t] = [width((f) => f.what), width((f) => f.value), width((f) => f.target)];
  return figures.map((f) => `  ${f.what.padEnd(w)}  ${f.value.padEnd(v)}  ${f.pass === null ? '' : `target ${f.target.padEnd(t)}  ${f.pass ? 'PASS' : 'MISS'}`}`.trimEnd() + '\n').join('');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
