import type { Config } from '../../core/config/config.ts';
import { LineSplitter, type Line } from '../../core/adapters/lines.ts';
import { holdPaused } from '../../io/output/pause-holds.ts';
import type { OutputTracker } from './output.ts';
import { paceLines } from './line-pacer.ts';
import { floodCollection, quietCompaction } from './flood-collection.ts';
import type { LoopClock, PassPorts, SpawnedChild } from '../ports.ts';

/**
 * The child's two output streams: each chunk is forwarded to deadman's own fd and shown to the
 * output tracker; lines are split only when something needs them (an agent adapter, the ready
 * pattern, generic session/turn patterns, or the adapter sniff).
 */

export interface RunStreams {
  /** Resolves once both streams closed and everything read was written out. */
  finished(): Promise<void>;
  /**
   * Resolves once what the root wrote before it exited was parsed (its exit event can come
   * before its last lines are read): the streams closed, or went quiet, or EXIT_READ_MAX_MS
   * passed (a leftover may hold them open), and the line backlog is worked off. Closes nothing.
   */
  readWritten(): Promise<void>;
}

export function feedStreams(
  child: SpawnedChild,
  config: Config,
  ports: Pick<PassPorts, 'clock' | 'adapter' | 'sniff' | 'forward' | 'logger' | 'records' | 'heap'>,
  output: OutputTracker,
  onLine: (line: Line, now: number) => void,
): RunStreams {
  // With `adapter = "auto"` and a command line that named no agent, the first stdout line may
  // still reveal one (a wrapper script around codex): that line is handed to `sniff`.
  const sniffer = ports.sniff ? firstLineSniffer(ports.sniff) : null;
  const linesWanted = configWantsLines(config);
  const needsLines = () => sniffer?.undecided === true || linesWanted || ports.adapter().name !== 'generic';
  const collectIfGrown = floodCollection(() => ports.clock.monotonic(), ports.heap);
  const compactWhenQuiet = quietCompaction(ports.clock, ports.heap);
  const feed = (stream: 'stdout' | 'stderr', fd: number) => {
    const splitter = new LineSplitter(config.max_line_bytes);
    const take = (line: Line, now: number) => void (output.line(stream, line, now), onLine(line, now));
    const handle = (line: Line, now: number) => {
      if (stream === 'stdout' && sniffer)
        sniffer.take(line, now, take, (first) => output.line(stream, first.line, first.now));
      else take(line, now);
    };
    const source = stream === 'stdout' ? child.stdout! : child.stderr!;
    // Stamped after each parse slice too: a backlog being worked off must not make a flowing pipe look quiet.
    const stamp = () => (lastChunkAt = ports.clock.monotonic());
    const split = (chunk: Uint8Array | null) => (chunk ? splitter.push(chunk) : splitter.flush());
    const sliced = () => void (stamp(), collectIfGrown());
    const paced = paceLines({
      split,
      handle,
      hold: (held) => holdPaused(source, 'line-pacer', held),
      sliced,
      monotonic: () => ports.clock.monotonic(),
    });
    const pipe = ports.forward(
      source,
      fd,
      (chunk, arrivedAt) => {
        output.chunk(chunk, arrivedAt);
        if (needsLines()) paced.push(chunk, arrivedAt);
        stamp();
        compactWhenQuiet();
      },
      undeliverable(stream, ports),
    );
    const closed = closedAfter(source, () => {
      if (needsLines()) paced.end();
    });
    return { pipe, closed, source, paced };
  };
  let lastChunkAt = ports.clock.monotonic();
  const streams = [feed('stdout', 1), feed('stderr', 2)];
  return {
    finished: () => streamsFinished(streams, () => lastChunkAt, ports.clock, sniffer),
    readWritten: () => readWritten(streams, () => lastChunkAt, ports.clock, sniffer),
  };
}

/** Whether the config reads lines whatever the adapter: a ready pattern, or a generic session or turn pattern. */
function configWantsLines(config: Config): boolean {
  return (
    Boolean(config.ready_pattern) ||
    config.generic.session_pattern !== undefined ||
    config.generic.turn_end_pattern !== undefined
  );
}

/** Resolves once `source` closed and `onClose` ran. */
function closedAfter(
  source: { once(event: 'close', listener: () => void): unknown },
  onClose: () => void,
): Promise<void> {
  return new Promise<void>((resolve) =>
    source.once('close', () => {
      onClose();
      resolve();
    }),
  );
}

/** A stream the parent could not write any more: said once, recorded, and the rest dropped. */
function undeliverable(stream: 'stdout' | 'stderr', ports: Pick<PassPorts, 'logger' | 'records'>) {
  return (error: NodeJS.ErrnoException) => {
    const problem = `could not deliver the child's ${stream} to deadman's ${stream} (${error.code ?? error.message}): the rest of it is dropped, the work goes on`;
    ports.logger.log('warn', problem);
    ports.records.undelivered(stream, problem);
  };
}

/** Both streams read to their end (or left once quiet), parsed, and written on. */
async function streamsFinished(
  streams: ReadonlyArray<{
    closed: Promise<void>;
    source: { destroy(): void };
    paced: { idle(): Promise<void> };
    pipe: { backlogged(): boolean; drained(): Promise<void> };
  }>,
  lastChunkAt: () => number,
  clock: LoopClock,
  sniffer: { settled(): Promise<void> } | null,
): Promise<void> {
  // Whatever still holds the pipes once the owned tree is stopped is not ours to stop (or
  // could not be): once they have been quiet for PIPE_QUIET_MS, stop waiting for it. Never
  // while bytes still come: output written before the root exited may sit behind a slow parse.
  await untilClosedOrQuiet(streams, lastChunkAt, clock);
  // Destroying drops what the kernel still holds for us: only ever done to a quiet pipe.
  for (const s of streams) s.source.destroy();
  await Promise.all(streams.map((s) => s.closed));
  await Promise.all(streams.map((s) => s.paced.idle()));
  await sniffer?.settled();
  await Promise.all(streams.map((s) => s.pipe.drained()));
}

async function readWritten(
  streams: ReadonlyArray<Parameters<typeof untilClosedOrQuiet>[0][number] & { paced: { idle(): Promise<void> } }>,
  lastChunkAt: () => number,
  clock: LoopClock,
  sniffer: { settled(): Promise<void> } | null,
): Promise<void> {
  await Promise.race([untilClosedOrQuiet(streams, lastChunkAt, clock), clock.sleep(EXIT_READ_MAX_MS)]);
  await Promise.all(streams.map((s) => s.paced.idle()));
  await sniffer?.settled();
}

/** The longest the root's exit waits for its last lines (a leftover that keeps writing holds the pipes open). */
const EXIT_READ_MAX_MS = 2_000;

/** After the owned tree is stopped, how long the pipes may stay open and silent (held by a process deadman cannot stop). */
const PIPE_QUIET_MS = 500;
/** How often a pipe that is quiet but still being written out is looked at again. */
const QUIET_RECHECK_MS = 20;

/**
 * Resolves when every stream closed, or when none delivered a byte for PIPE_QUIET_MS. Quiet is
 * only believed after an I/O poll ran since the timer (a loop blocked for longer by other work
 * has not looked at the pipes) and while nothing waits to be written (a paused pipe reads nothing).
 */
async function untilClosedOrQuiet(
  streams: ReadonlyArray<{ closed: Promise<void>; pipe: { backlogged(): boolean } }>,
  lastChunkAt: () => number,
  clock: LoopClock,
): Promise<void> {
  let allClosed = false;
  const closed = Promise.all(streams.map((s) => s.closed)).then(() => (allClosed = true));
  const quiet = () => clock.monotonic() - lastChunkAt() >= PIPE_QUIET_MS && !streams.some((s) => s.pipe.backlogged());
  for (;;) {
    const wait = Math.max(QUIET_RECHECK_MS, lastChunkAt() + PIPE_QUIET_MS - clock.monotonic());
    await Promise.race([closed, clock.sleep(wait)]);
    if (allClosed) return;
    if (!quiet()) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (allClosed || quiet()) return;
  }
}

type HeldLine = { line: Line; now: number };

/**
 * Hands the first stdout line to `sniff`, which may upgrade the adapter (loaded asynchronously).
 * The lines behind it wait for the answer, or a wrapped agent's first events would be read as
 * generic lines and lost as events; an upgrade reads the first line again with the new adapter.
 */
function firstLineSniffer(sniff: (firstLine: string) => Promise<boolean>) {
  let state: 'sniffing' | 'waiting' | 'done' = 'sniffing';
  let held: HeldLine[] = [];
  let answered: Promise<void> = Promise.resolve();
  return {
    /** Until the answer is in, every line is needed (the adapter may yet parse them). */
    get undecided() {
      return state !== 'done';
    },
    take(line: Line, now: number, take: (line: Line, now: number) => void, reread: (first: HeldLine) => void): void {
      if (state === 'waiting') return void held.push({ line, now });
      if (state === 'sniffing') {
        state = 'waiting';
        answered = sniff(line.text)
          .catch(() => false)
          .then((upgraded) => {
            if (upgraded) reread({ line, now });
            state = 'done';
            for (const next of held) take(next.line, next.now);
            held = [];
          });
      }
      take(line, now);
    },
    settled: () => answered,
  };
}
