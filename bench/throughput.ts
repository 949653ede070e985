import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { passThrough, type Pass } from './helpers/pass-through.ts';
import { median, table, type Figure } from './helpers/figures.ts';

/**
 * What an agent adapter costs the output it passes through: 50 MB of Codex and 100 MB of Claude
 * event streams (issue 27's floors and targets) (hand-made lines of the recorded shapes: tool
 * starts and ends with their output, agent messages; and commands with 100 KB outputs, the lines
 * whose middles the adapters skip — Claude Code writes such an output twice, in the tool result
 * and in tool_use_result.stdout) through `deadman run --adapter codex|claude`, against the same
 * bytes through `--adapter generic`, which parses nothing, and deadman's peak RSS. Prints
 * figures beside targets; a miss is reported, not failed, so it returns 0.
 */

const MB = 1000 * 1000;
const ROUNDS = 3;
/** Peak RSS with an agent adapter may exceed generic passthrough's own peak by this much. */
const PEAK_OVER_GENERIC_MB = 12;

/** One cycle of Codex `exec --json` events: a command started and finished, then a message. */
function codexCycle(n: number): string {
  const command = `/bin/bash -lc 'make test-${n}'`;
  const output = `ok ${n} - a test line of the tool's captured output\\n`.repeat(40);
  return (
    [
      JSON.stringify({
        type: 'item.started',
        item: {
          id: `item_${n}`,
          type: 'command_execution',
          command,
          aggregated_output: '',
          exit_code: null,
          status: 'in_progress',
        },
      }),
      JSON.stringify({
        type: 'item.completed',
        item: {
          id: `item_${n}`,
          type: 'command_execution',
          command,
          aggregated_output: output,
          exit_code: 0,
          status: 'completed',
        },
      }),
      JSON.stringify({
        type: 'item.completed',
        item: { id: `msg_${n}`, type: 'agent_message', text: `Step ${n} passed; moving on to the next one.` },
      }),
    ].join('\n') + '\n'
  );
}

/** A command whose output is long (a test log, a build): 100 KB, most of the line, in which Codex escapes every newline. */
function codexLongOutputCycle(n: number): string {
  const item = {
    id: `item_${n}`,
    type: 'command_execution',
    command: `/bin/bash -lc 'make test-${n}'`,
    exit_code: 0,
    status: 'completed',
  };
  return (
    [
      JSON.stringify({
        type: 'item.started',
        item: { ...item, aggregated_output: '', exit_code: null, status: 'in_progress' },
      }),
      JSON.stringify({
        type: 'item.completed',
        item: { ...item, aggregated_output: `ok ${n} - a test line of the tool's captured output\n`.repeat(2000) },
      }),
    ].join('\n') + '\n'
  );
}

/** A message's uuid as Claude Code writes it, 36 characters: JSON.parse keeps strings of up to 10 in the old generation's string table, so short stand-ins would cost memory the real stream does not. */
function claudeUuid(n: number, k: number): string {
  return `00000000-0000-4000-8000-${(n * 3 + k).toString(16).padStart(12, '0')}`;
}

/** One cycle of Claude `stream-json` events: a Bash tool use, its result, then text. */
function claudeCycle(n: number): string {
  const session = '6e800c64-22ae-404c-869c-65b8d8ca672c';
  const message = (content: object[]) => ({
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-opus',
    content,
    stop_reason: null,
    usage: { input_tokens: 100, output_tokens: 1 },
  });
  return (
    [
      JSON.stringify({
        type: 'assistant',
        message: message([
          {
            type: 'tool_use',
            id: `toolu_${n}`,
            name: 'Bash',
            input: { command: `make test-${n}`, description: 'run the tests' },
          },
        ]),
        parent_tool_use_id: null,
        session_id: session,
        uuid: claudeUuid(n, 1),
      }),
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              tool_use_id: `toolu_${n}`,
              type: 'tool_result',
              content: `ok ${n} - a test line\n`.repeat(60),
              is_error: false,
            },
          ],
        },
        parent_tool_use_id: null,
        session_id: session,
        uuid: claudeUuid(n, 2),
      }),
      JSON.stringify({
        type: 'assistant',
        message: message([{ type: 'text', text: `Step ${n} passed; moving on to the next one.` }]),
        parent_tool_use_id: null,
        session_id: session,
        uuid: claudeUuid(n, 3),
      }),
    ].join('\n') + '\n'
  );
}

/** A Bash call whose output is long, as Claude Code writes it: the output in the tool result and again in tool_use_result.stdout. */
function claudeLongOutputCycle(n: number): string {
  const session = '6e800c64-22ae-404c-869c-65b8d8ca672c';
  const output = `ok ${n} - a test line of the tool's captured output\n`.repeat(2000);
  return (
    [
      JSON.stringify({
        type: 'assistant',
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus',
          content: [
            {
              type: 'tool_use',
              id: `toolu_${n}`,
              name: 'Bash',
              input: { command: `make test-${n}`, description: 'run the tests' },
            },
          ],
          stop_reason: null,
          usage: { input_tokens: 100, output_tokens: 1 },
        },
        parent_tool_use_id: null,
        session_id: session,
        uuid: claudeUuid(n, 1),
      }),
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: `toolu_${n}`, type: 'tool_result', content: output, is_error: false }],
        },
        parent_tool_use_id: null,
        session_id: session,
        uuid: claudeUuid(n, 2),
        tool_use_result: { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      }),
    ].join('\n') + '\n'
  );
}

/** Writes cycles until the file holds at least `bytes`; returns its event count. */
function writeStream(path: string, cycle: (n: number) => string, bytes: number, eventsPerCycle: number): number {
  const fd = openSync(path, 'w');
  let written = 0;
  let n = 0;
  try {
    while (written < bytes) {
      const batch = Array.from({ length: 100 }, () => cycle(n++)).join('');
      written += writeSync(fd, batch);
    }
  } finally {
    closeSync(fd);
  }
  return n * eventsPerCycle;
}

export async function main(): Promise<number> {
  const bench = deadmanBench('throughput');
  const { dir } = bench;
  try {
    const stream = (
      name: string,
      cycle: (n: number) => string,
      eventsPerCycle: number,
      megabytes: number,
      target: number,
    ) => {
      const file = join(dir, `${name}.jsonl`);
      return {
        adapter: name.split('-')[0]!,
        file,
        bytes: megabytes * MB,
        target,
        events: writeStream(file, cycle, megabytes * MB, eventsPerCycle),
      };
    };
    const streams = {
      codex: stream('codex', codexCycle, 3, 50, 0.9),
      'codex (100 KB outputs)': stream('codex-long', codexLongOutputCycle, 2, 100, 0.9),
      claude: stream('claude', claudeCycle, 3, 100, 0.5),
      'claude (100 KB outputs)': stream('claude-long', claudeLongOutputCycle, 2, 100, 0.5),
    };
    const counts = Object.entries(streams)
      .map(([name, { events }]) => `${name} ${events}`)
      .join(', ');
    process.stdout.write(
      `throughput: ${process.execPath} ${process.version}; event streams (events: ${counts}), state in ${dir}\n`,
    );
    const runs = new Map<string, Pass[]>();
    // Interleaved rounds: a change in machine load hits every case alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, { adapter: agent, file, bytes }] of Object.entries(streams)) {
        for (const adapter of ['generic', agent]) {
          const key = `${name}/${adapter}`;
          runs.set(key, [...(runs.get(key) ?? []), await passThrough(adapter, file, bytes, bench)]);
        }
      }
    }
    const seconds = (key: string) => median(runs.get(key)!.map((r) => r.seconds));
    const cpu = (key: string) => median(runs.get(key)!.map((r) => r.cpuSeconds));
    const peakMb = (key: string) => (Math.max(...runs.get(key)!.map((r) => r.peakKb)) * 1024) / 1e6;
    const figures: Figure[] = Object.entries(streams).flatMap(([name, { adapter: agent, bytes, target }]) => {
      const [generic, parsed] = [seconds(`${name}/generic`), seconds(`${name}/${agent}`)];
      const mbps = (s: number) => `${(bytes / MB / s).toFixed(0)} MB/s`;
      const [peak, floor] = [peakMb(`${name}/${agent}`), peakMb(`${name}/generic`)];
      return [
        {
          what: `${bytes / MB} MB of ${name} events, --adapter ${agent} / generic (floor)`,
          value: `${mbps(parsed)} / ${mbps(generic)} = ${(generic / parsed).toFixed(2)}×`,
          target: `≥ ${target}×`,
          pass: generic / parsed >= target,
        },
        {
          what: `  reference: deadman's CPU, --adapter ${agent} / generic`,
          value: `${cpu(`${name}/${agent}`).toFixed(2)} / ${cpu(`${name}/generic`).toFixed(2)} s`,
          target: '',
          pass: null,
        },
        {
          what: `  peak RSS, --adapter ${agent} / generic (floor)`,
          value: `${peak.toFixed(1)} / ${floor.toFixed(1)} MB = floor + ${(peak - floor).toFixed(1)} MB`,
          target: `≤ floor + ${PEAK_OVER_GENERIC_MB} MB`,
          pass: peak - floor <= PEAK_OVER_GENERIC_MB,
        },
      ];
    });
    process.stdout.write(table(figures));
    process.stdout.write(
      `  (median of ${ROUNDS} interleaved rounds, first byte to end of stream, read and discarded by the bench)\n`,
    );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
