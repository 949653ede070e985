import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { megabytes, table } from './helpers/figures.ts';
import { runtimeMs, smapsRollupKb, statusKb } from './helpers/proc-sample.ts';
import { sqliteFloorScript } from './helpers/sqlite-floor.ts';

/**
 * What `deadman run` costs a host while its command idles (a unit spends most of its life so):
 * deadman's resident memory and the CPU it burns supervising `sleep 60`, beside an idle bare
 * Node and the floor of any Node supervisor that records to SQLite. Prints one table; a miss is reported, not failed, so it returns 0.
 */

const SETTLE_MS = 2_000;
const MEASURE_MS = 20_000;
/** Issue 27: deadman's idle RSS may exceed the floor (below), measured in the same run, by this much. */
const OVER_FLOOR_MB = 4;

export async function main(): Promise<number> {
  if (process.platform !== 'linux') {
    console.log(`memory: reads /proc, which needs Linux (this is ${process.platform})`);
    return 0;
  }
  const bench = deadmanBench('memory');
  try {
    // Side by side, so each PSS shares the Node binary's pages with the same neighbours.
    const [deadman, node, floor] = await Promise.all([
      idle([process.execPath, ...bench.run('--', 'sleep', '60')], bench.opts),
      idle([process.execPath, '-e', 'setTimeout(() => {}, 60_000)'], bench.opts),
      idle([process.execPath, '--input-type=module', '-e', floorScript(join(bench.dir, 'floor.db'))], bench.opts),
    ]);
    const memory = (x: Idle) => `${megabytes(x.rssKb)} (PSS ${megabytes(x.pssKb)}, anonymous ${megabytes(x.anonKb)})`;
    process.stdout.write(`memory: ${process.execPath} ${process.version}; deadman run -- sleep 60, no NOTIFY_SOCKET\n`);
    process.stdout.write(
      table([
        {
          what: 'RSS of deadman supervising idle `sleep 60` / floor',
          value: `${memory(deadman)} = floor + ${megabytes(deadman.rssKb - floor.rssKb)}`,
          target: `≤ floor + ${OVER_FLOOR_MB} MB`,
          pass: (deadman.rssKb - floor.rssKb) * 1024 <= OVER_FLOOR_MB * 1e6,
        },
        {
          what: '  reference: its peak (VmHWM) so far, start-up included',
          value: megabytes(deadman.peakKb),
          target: '',
          pass: null,
        },
        { what: '  reference: an idle `node -e setTimeout…`', value: memory(node), target: '', pass: null },
        {
          what: '  floor: Node with SQLite open, supervising `sleep 60` on pipes',
          value: memory(floor),
          target: '',
          pass: null,
        },
        {
          what: `CPU supervising idle \`sleep 60\` (${MEASURE_MS / 1000} s)`,
          value: `${deadman.percent.toFixed(2)} % of a core (${deadman.cpuMs.toFixed(0)} ms)`,
          target: '≤ 0.2 %',
          pass: deadman.percent <= 0.2,
        },
      ]),
    );
    process.stdout.write(
      "  (RSS counts the Node binary's pages in full; PSS splits pages shared with other processes among them: what one more unit costs)\n",
    );
    return 0;
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

/**
 * The least any Node supervisor of an idle command that records to SQLite holds: the SQLite
 * floor, node:crypto (markers are signed), the child on pipes, and a once-a-second timer that
 * writes a row.
 */
function floorScript(database: string): string {
  return sqliteFloorScript(
    database,
    `const { createHmac } = await import('node:crypto');
    createHmac('sha256', 'key').update('marker').digest();
    const child = spawn('sleep', ['60'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => {});
    const poll = setInterval(insertRow, 1000);
    process.on('SIGTERM', () => { clearInterval(poll); child.kill(); db.close(); });`,
  );
}

interface Idle {
  percent: number;
  cpuMs: number;
  rssKb: number;
  pssKb: number;
  anonKb: number;
  peakKb: number;
}

/** The process's own CPU time (all threads, proc-sample.ts runtimeMs) over MEASURE_MS once start-up has settled, and its memory then. */
async function idle(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Idle> {
  const child = spawn(argv[0]!, argv.slice(1), { ...opts, stdio: 'ignore' });
  const closed = new Promise((resolve) => child.once('close', resolve));
  try {
    await sleep(SETTLE_MS);
    const before = { cpu: runtimeMs(child.pid!), at: performance.now() };
    await sleep(MEASURE_MS);
    const cpuMs = runtimeMs(child.pid!) - before.cpu;
    const pid = child.pid!;
    return {
      percent: (cpuMs / (performance.now() - before.at)) * 100,
      cpuMs,
      rssKb: statusKb(pid, 'VmRSS'),
      pssKb: smapsRollupKb(pid, 'Pss'),
      anonKb: statusKb(pid, 'RssAnon'),
      peakKb: statusKb(pid, 'VmHWM'),
    };
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
