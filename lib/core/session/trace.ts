import { z } from 'zod';
import { parseJsonOrUndefined } from '../json/parse-json.ts';

/**
 * A trace: what one run saw, as JSON lines — the settings it ran with, each chunk of output,
 * each observation of its process tree, and its exit, every entry stamped with milliseconds
 * since the run started. `deadman run --record` writes one; `deadman replay` feeds one through
 * the same supervision loop on a simulated clock. One schema per line; the type is inferred.
 */

export const TRACE_VERSION = 1;

const ms = z.number().int().nonnegative();

const processSchema = z.object({
  pid: z.number().int().positive(),
  ppid: z.number().int().nonnegative(),
  pgid: z.number().int().nonnegative(),
  sid: z.number().int().nonnegative(),
  startTime: z.number().nonnegative(),
  state: z.string().min(1),
  comm: z.string(),
  cmdline: z.array(z.string()),
  cpuTicks: z.number().nonnegative(),
  reapedCpuTicks: z.number().nonnegative().optional(),
  waitMs: z.number().nonnegative().optional(),
  runs: z.number().nonnegative().optional(),
  ioBytes: z.number().nonnegative().nullable(),
  listening: z.boolean(),
});

/** The settings that change what the loop decides; anything left out takes deadman's default. */
const settingsSchema = z.strictObject({
  poll: ms.min(1),
  inactivity: ms,
  timeout: ms,
  hung_timeout: ms,
  ready_timeout: ms,
  ready_pattern: z.string().optional(),
  verify_window: ms,
  kill_grace: ms,
  stop_grace: ms,
  auto_recover: z.boolean(),
  on_stall: z.enum(['withhold', 'exit']),
  ignore: z.array(z.string()),
  activity: z.strictObject({ window: ms.min(1), cpu: ms, io_bytes: ms }),
  budget: z.strictObject({ tokens: z.number().int().nonnegative(), cost_usd: z.number().nonnegative() }),
}).partial();

const adapterName = z.enum(['codex', 'claude', 'generic']);

export const traceEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('header'),
    version: z.literal(TRACE_VERSION),
    adapter: adapterName,
    /** Pid of the supervised command (the root of the observed tree). */
    root: z.number().int().positive(),
    settings: settingsSchema,
    /** What a replay must show, as `KIND → STATE` per incident (shipped traces); a recording has none. */
    expect: z.array(z.string()).optional(),
    title: z.string().optional(),
    /** Wall-clock ms at the first spawn: the trace's clock plus this is the wall clock (a usage limit's reset time is one). */
    wall: ms.optional(),
  }),
  z.strictObject({ type: z.literal('output'), at: ms, stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  z.strictObject({ type: z.literal('observation'), at: ms, processes: z.array(processSchema) }),
  /** `adapter`: the one the run ended with, when the first output line upgraded it (adapter = "auto" behind a wrapper). */
  z.strictObject({ type: z.literal('exit'), at: ms, code: z.number().int().nullable(), signal: z.string().nullable(), adapter: adapterName.optional() }),
  /** A new agent process of the same run (the pass loop, lib/supervise/run/pass-loop.ts): its root, its command line, and why it started. */
  z.strictObject({ type: z.literal('pass'), at: ms, root: z.number().int().positive(), argv: z.array(z.string()), why: z.enum(['cancel-resume', 'respawn', 'usage-limit']) }),
  /** The wait after a USAGE_LIMIT as planned: the next pass is due at `resume_at` (the trace's clock), or null when deadman did not wait and why. */
  z.strictObject({ type: z.literal('usage_wait'), at: ms, resume_at: ms.nullable(), reason: z.string().optional() }),
  /** What the work-tree fingerprint (REPEATED_FAILURE's "no change to the workspace") answered, one entry per time it was asked. */
  z.strictObject({ type: z.literal('workspace'), at: ms, fingerprint: z.string().nullable() }),
]);

export type TraceEntry = z.infer<typeof traceEntrySchema>;
export type TraceHeader = Extract<TraceEntry, { type: 'header' }>;
export type TraceSettings = TraceHeader['settings'];
export type TraceEvent = Exclude<TraceEntry, TraceHeader>;
export type TraceEventOf<T extends TraceEvent['type']> = Extract<TraceEvent, { type: T }>;

export interface Trace {
  header: TraceHeader;
  /** Output, observations, exits and the passes after the first, in the order they happened. */
  events: TraceEvent[];
}

/** The adapter to read the trace's output with: the one the run ended with. */
export function traceAdapter(trace: Trace): TraceHeader['adapter'] {
  const exit = trace.events.findLast((event) => event.type === 'exit');
  return (exit?.type === 'exit' ? exit.adapter : undefined) ?? trace.header.adapter;
}

export type TraceParse = { ok: true; trace: Trace } | { ok: false; problem: string };

/** Parses a whole trace; the problem names the line and what is wrong with it. */
export function parseTrace(text: string): TraceParse {
  const lines = text.split('\n');
  const entries: TraceEntry[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const json = parseJsonOrUndefined(line);
    if (json === undefined) return { ok: false, problem: `line ${index + 1} is not JSON` };
    const parsed = traceEntrySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, problem: `line ${index + 1}: ${issue.path.join('.') || 'entry'}: ${issue.message}` };
    }
    entries.push(parsed.data);
  }
  const [header, ...rest] = entries;
  if (header?.type !== 'header') return { ok: false, problem: 'the first line must be the header ({"type":"header","version":1,…})' };
  const events = rest.filter((entry): entry is TraceEvent => entry.type !== 'header');
  if (events.length !== rest.length) return { ok: false, problem: 'only the first line may be a header' };
  const disordered = events.findIndex((event, i) => i > 0 && event.at < events[i - 1]!.at);
  if (disordered !== -1) return { ok: false, problem: `entry ${disordered + 2} is earlier than the one before it: entries must be in time order` };
  return { ok: true, trace: { header, events } };
}
