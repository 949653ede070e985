import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './helpers/cli.ts';
import { startHostLoad } from './helpers/host-load.ts';

/**
 * `npm run test:busy`: the whole suite, run by the same command as `npm test`, beside
 * 2 × nproc busy loops and an exec storm, as on a shared host at a load of several times its
 * cores. It lives in test/, not bench/: it passes or fails like the suite (bench/ only prints
 * figures, and `npm run bench` runs every module there). The load ends with this process,
 * even when it is killed (each loop checks that it is alive). Prints the wall time and the
 * load average seen (1-minute, sampled every few seconds); exits with the suite's code.
 */

const SAMPLE_MS = 5_000;

function suiteCommand(): string {
  const script = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { test: string } })
    .scripts.test;
  // `npm test` builds, then runs the suite: only the last step here (test:busy builds first).
  return script.split(' && ').at(-1)!;
}

async function main(): Promise<number> {
  const busyLoops = 2 * availableParallelism();
  const stopLoad = startHostLoad({ busyLoops, execStorms: 1 });
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]!), SAMPLE_MS);
  const started = performance.now();
  const suite = spawn('sh', ['-c', suiteCommand()], { cwd: repoRoot, stdio: 'inherit' });
  const stopBoth = () => suite.kill('SIGTERM');
  process.once('SIGINT', stopBoth).once('SIGTERM', stopBoth);
  const code = await new Promise<number>((resolve) =>
    suite.on('close', (exit, signal) => resolve(exit ?? (signal ? 128 : 1))),
  );
  clearInterval(sampler);
  stopLoad();
  const wallS = (performance.now() - started) / 1000;
  const mean = loads.length > 0 ? loads.reduce((a, b) => a + b, 0) / loads.length : loadavg()[0]!;
  const max = Math.max(...loads, loadavg()[0]!);
  process.stdout.write(
    `test:busy: suite exited ${code} after ${wallS.toFixed(0)} s beside ${busyLoops} busy loops and an exec storm on ${availableParallelism()} CPUs;` +
      ` load average (1 min) mean ${mean.toFixed(1)}, max ${max.toFixed(1)}\n`,
  );
  return code;
}

process.exitCode = await main();
