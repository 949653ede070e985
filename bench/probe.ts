import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { deadmanBench, deadmanBin } from './helpers/deadman-env.ts';
import { median } from './helpers/figures.ts';
import { fleetRow } from './helpers/fleet-row.ts';
import type { FleetRow } from './helpers/figures.ts';
import { clockTicksPerSecond, cpuTicks } from './helpers/proc-sample.ts';
import { timeStarts } from './startup.ts';

/**
 * What a probe costs (issue 36.1): `deadman health --name N` (a liveness probe, every few seconds
 * on every pod), `status` and `metrics`, each a start of its own, against the floor of Node
 * opening the database read-only and reading one row; and the httpGet answer of
 * `run --health-listen`, which costs no process, against a bare node:http server answering 200.
 * All against a live run, measured in the same run, interleaved (startup.ts's timing). Misses
 * are reported, not failed.
 */

const PROBE_TARGET = 1.3;
const REQUESTS = 201;

export async function fleetRows(): Promise<FleetRow[]> {
  const bench = deadmanBench('probe');
  const run = spawn(
    process.execPath,
    bench.run('--name', 'probe', '--inactivity', 'off', '--health-listen', '127.0.0.1:0', '--', 'sleep', '600'),
    { ...bench.opts, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const bare = spawn(
    process.execPath,
    [
      '-e',
      "const s = require('node:http').createServer((q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('ok\\n')).listen(0, '127.0.0.1', () => console.error('port ' + s.address().port))",
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const [port, barePort] = await Promise.all([portOf(run, /health on port (\d+)/), portOf(bare, /port (\d+)/)]);
    const database = join(bench.dir, 'deadman.db');
    await until(
      () => existsSync(join(bench.opts.env.STATE_DIRECTORY!, 'health', 'probe.json')),
      "the run's health file",
    );
    const t = timeStarts(
      {
        floor: { argv: ['--input-type=module', '-e', readOnlyFloor(database)] },
        health: { argv: [deadmanBin, 'health', '--name', 'probe'] },
        status: { argv: [deadmanBin, 'status', '--database', database] },
        metrics: { argv: [deadmanBin, 'metrics', '--database', database] },
      },
      bench.opts,
    );
    const floorWhat = 'node opening the database read-only, reading one row';
    const served = await timeRequests(port, run.pid!, barePort, bare.pid!);
    return [
      fleetRow('`deadman health --name N` (median wall)', t.health, t.floor, floorWhat, PROBE_TARGET),
      fleetRow('`deadman status` (median wall)', t.status, t.floor, floorWhat, PROBE_TARGET),
      fleetRow('`deadman metrics` (median wall)', t.metrics, t.floor, floorWhat, PROBE_TARGET),
      fleetRow(
        "httpGet on `run --health-listen` (median per request; CPU: the server's)",
        served.deadman,
        served.bare,
        'a bare node:http server answering 200',
        PROBE_TARGET,
      ),
    ];
  } finally {
    run.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([exitOf(run), exitOf(bare)]);
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

/** The floor of a probe: Node opening the database read-only and reading one row. */
function readOnlyFloor(database: string): string {
  return `import { DatabaseSync } from 'node:sqlite';
    const db = new DatabaseSync(${JSON.stringify(database)}, { readOnly: true });
    db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1').get();
    db.close();`;
}

/** Interleaved GETs to both servers, one at a time: the median answer time, and each server's CPU per request. */
async function timeRequests(
  port: number,
  pid: number,
  barePort: number,
  barePid: number,
): Promise<{ deadman: { wallMs: number; cpuMs: number }; bare: { wallMs: number; cpuMs: number } }> {
  const times = { deadman: [] as number[], bare: [] as number[] };
  const before = { deadman: cpuTicks(pid).own, bare: cpuTicks(barePid).own };
  for (let i = 0; i < REQUESTS; i++) {
    times.deadman.push(await get(port));
    times.bare.push(await get(barePort));
  }
  const msPerTick = 1000 / clockTicksPerSecond();
  return {
    deadman: { wallMs: median(times.deadman), cpuMs: ((cpuTicks(pid).own - before.deadman) * msPerTick) / REQUESTS },
    bare: { wallMs: median(times.bare), cpuMs: ((cpuTicks(barePid).own - before.bare) * msPerTick) / REQUESTS },
  };
}

function get(port: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (response) => {
      response
        .resume()
        .on('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`GET answered ${response.statusCode}`)),
        );
    });
    req.on('error', reject).end();
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function portOf(child: ChildProcess, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      said += text;
      const port = pattern.exec(said)?.[1];
      if (port) resolve(Number(port));
    });
    child.once('exit', (code) => reject(new Error(`ended ${code} before listening: ${said}`)));
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function main(): Promise<number> {
  process.stdout.write(`probe: ${process.execPath} ${process.version}\n`);
  for (const row of await fleetRows()) {
    process.stdout.write(
      `  ${row.figure}: ${row.now} / ${row.floor} = ${row.ratio}  target ${row.target}  ${row.met ? 'PASS' : 'MISS'}\n`,
    );
  }
  process.stdout.write(
    '  (wall: median of interleaved starts, CPU: their mean user+system; httpGet: median of interleaved requests)\n',
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
