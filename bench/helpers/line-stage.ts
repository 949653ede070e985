import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { createAdapter } from '../../lib/core/adapters/index.ts';
import { claudeLineSchema } from '../../lib/core/adapters/claude-schema.ts';
import { codexEventSchema } from '../../lib/core/adapters/codex-schema.ts';
import { parseEventLine } from '../../lib/core/adapters/json-line.ts';
import { LineSplitter, type Line } from '../../lib/core/adapters/lines.ts';
import { isUnreadClaudeLine, isUnreadCodexLine } from '../../lib/core/adapters/unread-lines.ts';
import { release } from '../../lib/io/output/passthrough.ts';
import { paceLines } from '../../lib/supervise/output/line-pacer.ts';
import { OutputTracker } from '../../lib/supervise/output/output.ts';
import { EventBatch } from '../../lib/supervise/records/event-batch.ts';
import type { RecordedAgent } from './recorded-streams.ts';

/**
 * One stage of deadman's output path over a stream file, alone in a fresh process as in a run
 * (its JIT cold), printing the CPU milliseconds it took: `node line-stage.js FILE AGENT STAGE`.
 * Stages are cumulative, each doing what the one before it did and one thing more, so the
 * differences are what each thing costs (bench/line-costs.ts). The chunks come as a pipe gives
 * them (64 KiB, the event loop let through between them) into the pacer, as run-streams.ts
 * feeds it; the passthrough and the store are not in it.
 */

export const STAGES = ['chunks', 'split', 'pre-check', 'parse', 'validate', 'adapter', 'tracker', 'records'] as const;
export type Stage = (typeof STAGES)[number];

const CHUNK_BYTES = 64 * 1024;

async function lineHandler(agent: RecordedAgent, stage: Stage): Promise<(line: Line, now: number) => void> {
  const adapter = await createAdapter(agent);
  const unread = agent === 'codex' ? isUnreadCodexLine : isUnreadClaudeLine;
  const schema = z.compile((agent === 'codex' ? codexEventSchema : claudeLineSchema) as z.ZodType);
  // Queued as a flood's are (100 a flush), never written: the writes are bounded per second (event-batch.ts).
  const batch = new EventBatch(() => {}, { flushMs: 100, maxQueued: 100, schedule: () => {} });
  const records = {
    event: (stream: string, kind: string, raw: string, truncated: boolean, data: object | null) =>
      batch.add(() => ({ at: Date.now(), stream, kind, raw: raw.slice(0, 4096), truncated, data: data ?? undefined })),
  };
  const agentPorts = { onSession() {}, onTurnCompleted() {}, workspace: undefined };
  const tracker = new OutputTracker(0, () => adapter, stage === 'records' ? records : { event() {} }, agentPorts);
  const parsed = (text: string) => (unread(text) ? null : parseEventLine(text));
  const stages: Record<Stage, (line: Line, now: number) => unknown> = {
    chunks: () => {},
    split: () => {},
    'pre-check': (line) => unread(line.text),
    parse: (line) => parsed(line.text),
    validate: (line) => {
      const object = parsed(line.text);
      return object && schema.safeParse(object);
    },
    adapter: (line) => adapter.parseLine(line.text),
    tracker: (line, now) => tracker.line('stdout', line, now),
    records: (line, now) => tracker.line('stdout', line, now),
  };
  return stages[stage];
}

/** CPU milliseconds the stage took over the file. */
export async function runStage(file: string, agent: RecordedAgent, stage: Stage): Promise<number> {
  const handle = await lineHandler(agent, stage);
  const bytes = readFileSync(file);
  const splitter = new LineSplitter(1024 * 1024);
  const monotonic = () => performance.now();
  const paced = paceLines({
    split: (chunk) => (stage === 'chunks' ? [] : chunk ? splitter.push(chunk) : splitter.flush()),
    handle,
    hold: () => {},
    sliced: () => {},
    monotonic,
  });
  const started = process.cpuUsage();
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    const chunk = new Uint8Array(bytes.subarray(at, at + CHUNK_BYTES));
    paced.push(chunk, monotonic());
    release(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  paced.end();
  await paced.idle();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, agent, stage] = process.argv.slice(2) as [string, RecordedAgent, Stage];
  process.stdout.write(`${await runStage(file, agent, stage)}\n`);
}
