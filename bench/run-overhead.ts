import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { median, megabytes, table, type Figure } from './helpers/figures.ts';
import { smapsRollupKb, statusKb } from './helpers/proc-sample.ts';

/**
 * What `deadman run` costs the output it passes through, measured on the real CLI as a unit
 * runs it (no NOTIFY_SOCKET, a private state directory): passthrough against a `| cat` relay —
 * issue 17's reference, since any process that reads what passes adds a pipe hop that a direct
 * pipe does not have — and against the direct pipe, and deadman's peak RSS meanwhile. Prints one table; a miss is reported, not failed (benchmarks
 * report, tests assert), so it always returns 0.
 */

const BLOCK_BYTES = 64 * 1024 * 1024;
const BLOCK_REPEATS = 8;
const THROUGHPUT_RUNS = 3;

export async function main(): Promise<number> {
  const bench = deadmanBench('run');
  try {
    const block = join(bench.dir, 'block.bin');
    writeFileSync(block, randomBytes(BLOCK_BYTES));
    const catLoop = ['sh', '-c', `for i in $(seq ${BLOCK_REPEATS}); do cat "$0"; done`, block];
    const catRelay = ['sh', '-c', `for i in $(seq ${BLOCK_REPEATS}); do cat "$0"; done | cat`, block];

    process.stdout.write(
      `run-overhead: ${process.execPath} ${process.version}; deadman run with no NOTIFY_SOCKET, state in ${bench.dir}\n`,
    );
    const direct = await throughput(catLoop, bench.opts, false);
    const relay = await throughput(catRelay, bench.opts, false);
    const wrapped = await throughput([process.execPath, ...bench.run('--', ...catLoop)], bench.opts, true);

    const mbps = (r: { mbps: number }) => `${r.mbps.toFixed(0)} MB/s`;
    const figures: Figure[] = [
      {
        what: `passthrough ${(BLOCK_BYTES * BLOCK_REPEATS) / 2 ** 20} MiB, run / a \`| cat\` relay`,
        value: `${mbps(wrapped)} / ${mbps(relay)} = ${(wrapped.mbps / relay.mbps).toFixed(2)}×`,
        target: '≥ 0.9× (keep)',
        pass: wrapped.mbps / relay.mbps >= 0.9,
      },
      {
        what: '  reference: run / direct pipe',
        value: `${mbps(wrapped)} / ${mbps(direct)} = ${(wrapped.mbps / direct.mbps).toFixed(2)}×`,
        target: '',
        pass: null,
      },
      {
        what: 'peak RSS of deadman during passthrough',
        value: megabytes(wrapped.peak.rssKb),
        target: '≤ 55 MB',
        pass: wrapped.peak.rssKb * 1024 <= 55e6,
      },
      {
        what: "  reference: its peak anonymous memory and peak PSS (the Node binary's pages shared)",
        value: `${megabytes(wrapped.peak.anonKb)}, PSS ${megabytes(wrapped.peak.pssKb)}`,
        target: '',
        pass: null,
      },
    ];
    process.stdout.write(table(figures));
    process.stdout.write(
      `  (passthrough: median of ${THROUGHPUT_RUNS}, first byte to end of stream, read and discarded by the bench; start-up: startup.js, idle memory and CPU: memory.js)\n`,
    );
    return 0;
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

interface PeakMemory {
  /** VmHWM. */
  rssKb: number;
  anonKb: number;
  pssKb: number;
}

/** MB/s of the argv's stdout, read and discarded here; for deadman also its peak memory. */
async function throughput(
  argv: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  sampleMemory: boolean,
): Promise<{ mbps: number; peak: PeakMemory }> {
  const rates: number[] = [];
  const peak: PeakMemory = { rssKb: 0, anonKb: 0, pssKb: 0 };
  for (let run = 0; run < THROUGHPUT_RUNS; run++) {
    const child = spawn(argv[0]!, argv.slice(1), { ...opts, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    let firstByteAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      firstByteAt ||= performance.now();
      bytes += chunk.length;
    });
    const sample = () => {
      peak.rssKb = Math.max(peak.rssKb, statusKb(child.pid!, 'VmHWM'));
      peak.anonKb = Math.max(peak.anonKb, statusKb(child.pid!, 'RssAnon'));
      peak.pssKb = Math.max(peak.pssKb, smapsRollupKb(child.pid!, 'Pss'));
    };
    const sampler = sampleMemory ? setInterval(sample, 20) : null;
    const ended = new Promise<void>((resolve) => child.stdout.once('end', resolve));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    await ended;
    const seconds = (performance.now() - firstByteAt) / 1000;
    if (sampler) clearInterval(sampler);
    if (code !== 0 || bytes !== BLOCK_BYTES * BLOCK_REPEATS)
      throw new Error(`${argv.join(' ')} ended ${code} after ${bytes} bytes`);
    rates.push(bytes / 1e6 / seconds);
  }
  return { mbps: median(rates), peak };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
