import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { megabytes, table } from './helpers/figures.ts';
import { clockTicksPerSecond, cpuTicks, statusKb } from './helpers/proc-sample.ts';

/**
 * What `deadman run` costs a host while its command idles (a unit spends most of its life so):
 * deadman's resident memory and the CPU it burns supervising `sleep 60`, beside an idle bare
 * Node for reference. Prints one table; a miss is reported, not failed, so it returns 0.
 */

const SETTLE_MS = 2_000;
const MEASURE_MS = 20_000;

export async function main(): Promise<number> {
  if (process.platform !== 'linux') {
    console.log(`memory: reads /proc, which needs Linux (this is ${process.platform})`);
    return 0;
  }
  const bench = deadmanBench('memory');
  try {
    const [deadman, node] = await Promise.all([
      idle([process.execPath, ...bench.run('--', 'sleep', '60')], bench.opts),
      idle([process.execPath, '-e', 'setTimeout(() => {}, 60_000)'], bench.opts),
    ]);
    process.stdout.write(`memory: ${process.execPath} ${process.version}; deadman run -- sleep 60, no NOTIFY_SOCKET\n`);
    process.stdout.write(table([
      { what: 'RSS of deadman supervising idle `sleep 60`', value: megabytes(deadman.rssKb), target: '≤ 50 MB', pass: deadman.rssKb * 1024 <= 50e6 },
      { what: '  reference: its peak (VmHWM) so far, start-up included', value: megabytes(deadman.peakKb), target: '', pass: null },
      { what: '  reference: of it anonymous (not shared with other Node processes)', value: megabytes(deadman.anonKb), target: '', pass: null },
      { what: '  reference: RSS of an idle `node -e setTimeout…`', value: megabytes(node.rssKb), target: '', pass: null },
      { what: '  reference: of it anonymous', value: megabytes(node.anonKb), target: '', pass: null },
      { what: `CPU supervising idle \`sleep 60\` (${MEASURE_MS / 1000} s)`, value: `${deadman.percent.toFixed(2)} % of a core (${deadman.cpuMs.toFixed(0)} ms)`, target: '≤ 0.2 %', pass: deadman.percent <= 0.2 },
    ]));
    return 0;
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

/** The process's own utime+stime over MEASURE_MS once start-up has settled, and its memory then. */
async function idle(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ percent: number; cpuMs: number; rssKb: number; anonKb: number; peakKb: number }> {
  const child = spawn(argv[0]!, argv.slice(1), { ...opts, stdio: 'ignore' });
  const closed = new Promise((resolve) => child.once('close', resolve));
  try {
    await sleep(SETTLE_MS);
    const before = { cpu: cpuTicks(child.pid!).own, at: performance.now() };
    await sleep(MEASURE_MS);
    const cpuMs = (cpuTicks(child.pid!).own - before.cpu) / clockTicksPerSecond() * 1000;
    return { percent: cpuMs / (performance.now() - before.at) * 100, cpuMs, rssKb: statusKb(child.pid!, 'VmRSS'), anonKb: statusKb(child.pid!, 'RssAnon'), peakKb: statusKb(child.pid!, 'VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
