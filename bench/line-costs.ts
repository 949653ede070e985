import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, table, type Figure } from './helpers/figures.ts';
import { STAGES, type Stage } from './helpers/line-stage.ts';
import { longTurnLines, manyTurnLines, writeRecordedStream, type RecordedAgent } from './helpers/recorded-streams.ts';

/**
 * What each step of the output path costs a line of the recorded-shape streams (issue 36,
 * bench/turns.ts measures the whole): splitting, the pre-check, JSON.parse, the schema, the
 * adapter's events, the tracker's state and the queued event rows. Each stage is a fresh process
 * (line-stage.ts) doing the one before it and one thing more; a figure is the median CPU of
 * ROUNDS interleaved runs, less the stage before it, in µs a line and ms a MB. CPU, not wall
 * time: the host is shared, and the output path is all on deadman's one thread. A step of a few
 * milliseconds, or below zero, is within the noise of a loaded host.
 */

const ROUNDS = 5;
const MB = 1e6;
const STAGE_SCRIPT = new URL('./helpers/line-stage.js', import.meta.url).pathname;

const WHAT: Record<Stage, string> = {
  chunks: '64 KiB chunks into the pacer (the floor)',
  split: 'lines split and decoded',
  'pre-check': 'pre-check (unread-lines.ts)',
  parse: 'JSON.parse of the lines read',
  validate: 'schema (compiled zod)',
  adapter: "adapter's events",
  tracker: 'tracker: tools, attempts, progress',
  records: 'event rows queued',
};

function stageCpu(file: string, agent: RecordedAgent, stage: Stage): number {
  return Number(execFileSync(process.execPath, [STAGE_SCRIPT, file, agent, stage], { encoding: 'utf8' }).trim());
}

function costs(file: string, agent: RecordedAgent): Figure[] {
  const runs = new Map<Stage, number[]>(STAGES.map((stage) => [stage, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const stage of STAGES) runs.get(stage)!.push(stageCpu(file, agent, stage));
  const lines = Number(execFileSync('wc', ['-l', file], { encoding: 'utf8' }).split(' ')[0]);
  const megabytes = statSync(file).size / MB;
  const cpu = STAGES.map((stage) => median(runs.get(stage)!));
  return STAGES.map((stage, i) => {
    const ms = i === 0 ? cpu[0]! : cpu[i]! - cpu[i - 1]!;
    return {
      what: `  ${WHAT[stage]}`,
      value: `${ms.toFixed(0).padStart(4)} ms  ${((ms * 1000) / lines).toFixed(2).padStart(5)} µs/line  ${(ms / megabytes).toFixed(1).padStart(5)} ms/MB`,
      target: '',
      pass: null,
    };
  });
}

export async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'deadman-bench-line-costs-'));
  try {
    process.stdout.write('line costs (issue 36): CPU of each step of the output path, median of fresh processes\n');
    for (const agent of ['codex', 'claude'] as const) {
      for (const [name, lines] of [
        ['long turn', (n: number) => longTurnLines(agent, n)],
        ['many turns', (n: number) => manyTurnLines(agent, n)],
      ] as const) {
        const file = join(dir, `${agent}-${name.replace(' ', '-')}.jsonl`);
        writeRecordedStream(file, lines, 10 * MB);
        const figures = costs(file, agent);
        process.stdout.write(`${agent}, ${name}, ${(statSync(file).size / MB).toFixed(1)} MB:\n${table(figures)}`);
      }
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
