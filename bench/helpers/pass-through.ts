import { spawn } from 'node:child_process';
import type { DeadmanBench } from './deadman-env.ts';
import { clockTicksPerSecond, cpuTicks, statusKb } from './proc-sample.ts';

/** A file through `deadman run --adapter …`, timed and sampled: what the output benches measure. */

export interface Pass {
  seconds: number;
  peakKb: number;
  /** deadman's user+system CPU, as last sampled before it exited (up to one sample short). */
  cpuSeconds: number;
}

/** One `deadman run --adapter <adapter> -- cat <file>`, its stdout read and discarded here. */
export async function passThrough(
  adapter: string,
  file: string,
  fileBytes: number,
  bench: DeadmanBench,
): Promise<Pass> {
  const child = spawn(process.execPath, bench.run('--adapter', adapter, '--', 'cat', file), {
    ...bench.opts,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let bytes = 0;
  let firstByteAt = 0;
  let peakKb = 0;
  let ticks = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    firstByteAt ||= performance.now();
    bytes += chunk.length;
  });
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, statusKb(child.pid!, 'VmHWM'));
    try {
      ticks = cpuTicks(child.pid!).own;
    } catch {
      // exited between samples
    }
  }, 20);
  const ended = new Promise<void>((resolve) => child.stdout.once('end', resolve));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  await ended;
  clearInterval(sampler);
  if (code !== 0 || bytes < fileBytes) throw new Error(`--adapter ${adapter} ended ${code} after ${bytes} bytes`);
  return { seconds: (performance.now() - firstByteAt) / 1000, peakKb, cpuSeconds: ticks / clockTicksPerSecond() };
}
