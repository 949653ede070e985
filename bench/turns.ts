import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { fleetTable, median, type FleetRow } from './helpers/figures.ts';
import { passThrough } from './helpers/pass-through.ts';
import {
  longTurnLines,
  manyTurnLines,
  turnsPerRound,
  writeRecordedStream,
  type RecordedAgent,
} from './helpers/recorded-streams.ts';

/**
 * Streams shaped like the real CLIs' (issue 36, recorded-streams.ts) through `deadman run
 * --adapter codex|claude`, against the same bytes through `--adapter generic` (passthrough, no
 * parse: the floor): a long turn of 10 MB, and many turns — the recordings one after another —
 * at 4.9 and 9.8 MB, whose times must grow with the bytes, not faster. Wall time from first
 * byte to end, median of interleaved rounds; deadman's CPU beside it, as the host is shared.
 */

const MB = 1e6;
const ROUNDS = 3;
/** Twice the turns may take this much more than twice the time (the host's noise), and no more. */
const LINEAR_SLACK = 1.25;

interface Stream {
  file: string;
  bytes: number;
  turns: number;
}

function streams(dir: string, agent: RecordedAgent): Record<'long' | 'many' | 'many2', Stream> {
  const write = (name: string, lines: (n: number) => string[], bytes: number, turns: (n: number) => number): Stream => {
    const file = join(dir, `${agent}-${name}.jsonl`);
    const repeats = writeRecordedStream(file, lines, bytes);
    return { file, bytes: statSync(file).size, turns: turns(repeats) };
  };
  return {
    long: write(
      'long',
      (n) => longTurnLines(agent, n),
      10 * MB,
      () => 1,
    ),
    many: write(
      'many',
      (n) => manyTurnLines(agent, n),
      4.9 * MB,
      (n) => n * turnsPerRound(agent),
    ),
    many2: write(
      'many2',
      (n) => manyTurnLines(agent, n),
      9.8 * MB,
      (n) => n * turnsPerRound(agent),
    ),
  };
}

export async function fleetRows(): Promise<FleetRow[]> {
  const bench = deadmanBench('turns');
  try {
    const agents = { codex: streams(bench.dir, 'codex'), claude: streams(bench.dir, 'claude') };
    const times = new Map<string, { seconds: number[]; cpu: number[] }>();
    // Interleaved rounds: a change in the host's load hits every case alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [agent, of] of Object.entries(agents)) {
        for (const [name, stream] of Object.entries(of)) {
          for (const adapter of ['generic', agent]) {
            const pass = await passThrough(adapter, stream.file, stream.bytes, bench);
            const key = `${agent}/${name}/${adapter}`;
            const seen = times.get(key) ?? { seconds: [], cpu: [] };
            times.set(key, { seconds: [...seen.seconds, pass.seconds], cpu: [...seen.cpu, pass.cpuSeconds] });
          }
        }
      }
    }
    const seconds = (key: string) => median(times.get(key)!.seconds);
    const cpu = (key: string) => median(times.get(key)!.cpu);
    return Object.entries(agents).flatMap(([agent, of]) => rowsOf(agent, of, seconds, cpu));
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

function rowsOf(
  agent: string,
  of: Record<'long' | 'many' | 'many2', Stream>,
  seconds: (key: string) => number,
  cpu: (key: string) => number,
): FleetRow[] {
  const rate = (stream: Stream, s: number) => `${(stream.bytes / MB / s).toFixed(1)} MB/s`;
  const versus = (name: 'long' | 'many2', target: number, figure: string): FleetRow => {
    const [floor, now] = [seconds(`${agent}/${name}/generic`), seconds(`${agent}/${name}/${agent}`)];
    const cpus = `CPU ${cpu(`${agent}/${name}/${agent}`).toFixed(2)} / ${cpu(`${agent}/${name}/generic`).toFixed(2)} s`;
    return {
      figure,
      floor: `generic ${rate(of[name], floor)}`,
      now: `${rate(of[name], now)} (${cpus})`,
      ratio: `${(floor / now).toFixed(2)}×`,
      target: `≥ ${target}×`,
      met: floor / now >= target,
    };
  };
  const [once, twice] = [seconds(`${agent}/many/${agent}`), seconds(`${agent}/many2/${agent}`)];
  const growth = twice / of.many2.bytes / (once / of.many.bytes);
  return [
    versus('long', 0.9, `long turn, ${(of.long.bytes / MB).toFixed(1)} MB, --adapter ${agent}`),
    versus('many2', 0.5, `many turns, ${of.many2.turns} in ${(of.many2.bytes / MB).toFixed(1)} MB, --adapter ${agent}`),
    {
      figure: `  ${agent}: time per MB, ${of.many2.turns} turns / ${of.many.turns}`,
      floor: '—',
      now: `${once.toFixed(2)} s for ${(of.many.bytes / MB).toFixed(1)} MB, ${twice.toFixed(2)} s for ${(of.many2.bytes / MB).toFixed(1)} MB`,
      ratio: `${growth.toFixed(2)}×`,
      target: `linear (≤ ${LINEAR_SLACK}×)`,
      met: growth <= LINEAR_SLACK,
    },
  ];
}

export async function main(): Promise<number> {
  process.stdout.write('turns: its rows are printed in the fleet table (fleet.js)\n');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(fleetTable(await fleetRows()));
}
