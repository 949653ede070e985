import { z } from 'zod';
import { parseJsonOrUndefined } from '../json/parse-json.ts';
import { TRACE_VERSION } from './trace-version.ts';

/**
 * A trace: what one run saw, as JSON lines — the settings it ran with, each chunk of output,
 * each observation of its process tree, and its exit, every entry stamped with milliseconds
 * since the run started. `deadman run --record` writes one; `deadman replay` feeds one through
 * the same supervision loop on a simulated clock. One schema per line; the type is inferred.
 */

const ms = z.number().int().nonnegative();
/** A point on the trace's clock: milliseconds since the first spawn, to the microsecond from version 2 on. */
const at = z.number().nonnegative();
/** Whatever else the observer reports (a process's run-queue wait, a poll's cgroup CPU): kept as it was, so a replay sees it too. */
const observed = z.json();

const processSchema = z
  .object({
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
  })
  .catchall(observed);

/** The settings that change what the loop decides; anything left out takes deadman's default. */
const settingsSchema = z
  .strictObject({
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
    exit_grace: ms,
    ready_port: z.number().int().min(1).max(65535),
    max_line_bytes: z.number().int().positive(),
    generic: z.strictObject({ session_pattern: z.string().optional(), turn_end_pattern: z.string().optional() }),
    revive: z.strictObject({ max_revives: z.number().int().nonnegative() }),
  })
  .partial();

const adapterName = z.enum(['codex', 'claude', 'generic']);

export const traceEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('header'),
    version: z.union([z.literal(1), z.literal(TRACE_VERSION)]),
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
  z.strictObject({ type: z.literal('output'), at, stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  /**
   * One tick's poll of the owned tree, at the time the tick read. `startClock` (version 2):
   * where start times sit on the trace's clock (boot at `bootAt`, before the first spawn when
   * negative), so a birth is placed as the live run placed it; anything else the observer
   * reports about the poll is kept as it was.
   */
  z
    .object({
      type: z.literal('observation'),
      at,
      processes: z.array(processSchema),
      startClock: z.strictObject({ bootAt: z.number(), ticksPerSecond: z.number().positive() }).optional(),
    })
    .catchall(observed),
  /** `adapter`: the one the run ended with, when the first output line upgraded it (adapter = "auto" behind a wrapper). */
  z.strictObject({
    type: z.literal('exit'),
    at,
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
    adapter: adapterName.optional(),
  }),
  /** A new agent process of the same run (the pass loop, lib/supervise/run/pass-loop.ts): its root, its command line, and why it started. */
  z.strictObject({
    type: z.literal('pass'),
    at,
    root: z.number().int().positive(),
    argv: z.array(z.string()),
    why: z.enum(['cancel-resume', 'respawn', 'usage-limit']),
  }),
  /** The wait after a USAGE_LIMIT as planned: the next pass is due at `resume_at` (the trace's clock), or null when deadman did not wait and why. */
  z.strictObject({ type: z.literal('usage_wait'), at, resume_at: at.nullable(), reason: z.string().optional() }),
  /** What the work-tree fingerprint (REPEATED_FAILURE's "no change to the workspace") answered, one entry per time it was asked. */
  /** `resumed` (version 2): asked by the verification of the recovery that ended the pass before, not at a tool call's end. */
  z.strictObject({
    type: z.literal('workspace'),
    at,
    fingerprint: z.string().nullable(),
    resumed: z.literal(true).optional(),
  }),
  /** Version 2: what stopping a hung subtree did, written when it was done (the kill grace is the time between the tick and this entry). */
  z.strictObject({
    type: z.literal('terminate'),
    at,
    result: z.strictObject({
      killed: z.array(z.number().int()),
      survived: z.array(z.number().int()),
      refused: z.string().nullable(),
      skipped: z.array(z.strictObject({ pid: z.number().int(), reason: z.string() })),
    }),
  }),
  /** Version 2: an evidence claim that stayed dead past its grace (`dead`), or what the check on exit answered (`on_exit`: null when every claim held). */
  z.strictObject({
    type: z.literal('evidence'),
    at,
    dead: z.string().optional(),
    on_exit: z.string().nullable().optional(),
  }),
  /** Version 2: a stop signal deadman itself received (SIGTERM from systemd, a Ctrl-C). */
  z.strictObject({ type: z.literal('signal'), at, signal: z.string().regex(/^SIG[A-Z0-9]+$/) }),
  /** Version 2: whether the `ready_port` accepted, one entry per time the loop asked. */
  z.strictObject({ type: z.literal('port'), at, accepts: z.boolean() }),
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
  if (header?.type !== 'header')
    return { ok: false, problem: 'the first line must be the header ({"type":"header","version":1,…})' };
  const events = rest.filter((entry): entry is TraceEvent => entry.type !== 'header');
  if (events.length !== rest.length) return { ok: false, problem: 'only the first line may be a header' };
  const disordered = events.findIndex((event, i) => i > 0 && event.at < events[i - 1]!.at);
  if (disordered !== -1)
    return {
      ok: false,
      problem: `entry ${disordered + 2} is earlier than the one before it: entries must be in time order`,
    };
  return { ok: true, trace: { header, events } };
}
