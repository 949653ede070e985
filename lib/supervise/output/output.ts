import { hideKeyBlockLines } from '../../core/redact/line-redactor.ts';
import type { Adapter } from '../../core/adapters/agent-events.ts';
import type { Line } from '../../core/adapters/lines.ts';
import type { RunRecorder, PassPorts } from '../ports.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import { applyEvent, type EventOwner } from './apply-event.ts';
import { cutLongLine } from './evidence-line.ts';
import type { OutputState, OutputView } from './output-state.ts';

export { MAX_OPEN_TOOLS } from './apply-event.ts';

/**
 * What the child's output tells the loop: when it last made progress, the agent's session id,
 * its open tool calls, whether its turn completed, and the last lines (for incident evidence).
 * With an agent adapter only parsed events on stdout count as progress, and each line is
 * recorded with its events; with `generic` every byte of output on either stream counts, and
 * lines are split only when something needs them (patterns, readiness) — the passthrough of a
 * chatty build must not pay a database row per line.
 */
const LAST_LINES = 20;
const TAIL_BYTES = 16 * 1024;
const HISTORY = 50;
/**
 * A flood of tool results between two ticks (or while a tick waits on a kill grace) would
 * otherwise all wait in memory: 100 MB of Codex events held 45,000 of them and their output
 * tails, and a tick then folded them all at once. Past the bound the older half is dropped and
 * counted; the supervisor then starts its streaks over, which can only delay REPEATED_FAILURE
 * and NO_PROGRESS (thresholds 3 and 4, far below the half kept), never raise them falsely.
 * Small, because whatever waits here outlives young-generation collections: 1024 made V8 grow
 * its young generation to 67 MB under a flood, 256 keeps it at 34 MB. With the young generation
 * held at its first size, an attempt that waits for 128-256 later ones outlived two scavenges and
 * was promoted with its output tail: ~1 KB each of old-generation garbage, 12 MB of the 50 MB
 * Codex flood's peak over generic's (+23-27 MB); at 64 most die young: +16 MB.
 */
export const MAX_PENDING_ATTEMPTS = 64;

export class OutputTracker {
  /** Written here and by applyEvent, which only this tracker calls: readers get `state`, a read-only view. */
  private readonly s: OutputState;
  private readonly adapter: () => Adapter;
  private readonly records: Pick<RunRecorder, 'event'>;
  private readonly agent: Pick<PassPorts, 'onSession' | 'onTurnCompleted' | 'workspace'>;
  /** The last TAIL_BYTES of output in a fixed ring (copied: chunks are freed once written). */
  private readonly tail = new Uint8Array(TAIL_BYTES);
  private tailEnd = 0;
  private tailFilled = 0;
  /** Attempts whose workspace fingerprint is still being taken, and its answer. */
  private readonly fingerprinting = new Map<Attempt, Promise<void>>();
  /** What applyEvent may reach of this tracker. */
  private readonly owner: EventOwner;

  constructor(
    startedAt: number,
    adapter: () => Adapter,
    records: Pick<RunRecorder, 'event'>,
    agent: Pick<PassPorts, 'onSession' | 'onTurnCompleted' | 'workspace'>,
  ) {
    this.s = {
      lastOutputAt: startedAt,
      sessionId: null,
      openTools: new Map(),
      openToolCommands: new Map(),
      openToolWindows: new Map(),
      firstToolAt: null,
      readyAt: null,
      pipeBytes: 0,
      completed: false,
      failed: null,
      finishedAt: null,
      usageLimit: null,
      creditExhausted: null,
      compactingAt: null,
      toolResults: [],
      toolResultsLost: 0,
      history: [],
      filesChanged: [],
      usage: { tokens: 0, costUsd: null },
    };
    this.adapter = adapter;
    this.records = records;
    this.agent = agent;
    this.owner = { state: this.s, agent, attempted: (attempt) => this.attempted(attempt) };
  }

  get state(): OutputView {
    return this.s;
  }

  /** A line matched `ready_pattern`, or `ready_port` accepted: what runs now is the work, not its start. */
  ready(now: number): void {
    this.s.readyAt = now;
  }

  /** The supervisor starts its streaks over: the results dropped unseen are accounted for. */
  forgetLost(): void {
    this.s.toolResultsLost = 0;
  }

  /**
   * An agent deadman did not start (attach): its session file says when it last wrote and which
   * tool calls are open, in place of output lines.
   */
  sessionFileSeen(look: {
    wroteAt: number | null;
    openTools: ReadonlyMap<string, number>;
    firstToolAt: number | null;
  }): void {
    if (look.wroteAt !== null) this.s.lastOutputAt = look.wroteAt;
    this.s.openTools = new Map(look.openTools);
    this.s.firstToolAt = look.firstToolAt;
  }

  /** Every chunk of output, before any line splitting: keeps the tail for incident evidence. */
  chunk(chunk: Uint8Array, now: number): void {
    if (this.adapter().name === 'generic') this.s.lastOutputAt = now;
    this.s.pipeBytes += chunk.length;
    const bytes = chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES));
    const first = Math.min(bytes.length, TAIL_BYTES - this.tailEnd);
    this.tail.set(bytes.subarray(0, first), this.tailEnd);
    this.tail.set(bytes.subarray(first), 0);
    this.tailEnd = (this.tailEnd + bytes.length) % TAIL_BYTES;
    this.tailFilled = Math.min(TAIL_BYTES, this.tailFilled + bytes.length);
  }

  /** The last lines of output (both streams, as they arrived), for incident evidence. */
  lastLines(): string[] {
    const start = (this.tailEnd - this.tailFilled + TAIL_BYTES) % TAIL_BYTES;
    const ordered =
      start + this.tailFilled <= TAIL_BYTES
        ? this.tail.subarray(start, start + this.tailFilled)
        : Buffer.concat([this.tail.subarray(start), this.tail.subarray(0, this.tailEnd)]);
    const lines = new TextDecoder().decode(ordered).split('\n');
    if (lines.at(-1) === '') lines.pop();
    // Once the ring has wrapped, its first line begins mid-line, maybe inside a secret whose start is gone: no shape would see it.
    if (this.s.pipeBytes > TAIL_BYTES) lines.shift();
    // The tail may begin inside a key block: its lines go now, before any consumer sees them one by one.
    return hideKeyBlockLines(lines.slice(-LAST_LINES)).map(cutLongLine);
  }

  /** Handles one complete line; returns whether it counted as progress. */
  line(stream: 'stdout' | 'stderr', line: Line, now: number): boolean {
    const s = this.s;
    const adapter = this.adapter();
    const parsed =
      stream === 'stdout' || adapter.name === 'generic'
        ? adapter.parseLine(line.text)
        : { recognized: false, events: [] };
    const counts = adapter.name === 'generic' || parsed.recognized;
    // Any other word from the agent ends the compaction as the last thing it said.
    if (parsed.recognized) s.compactingAt = null;
    for (const event of parsed.events)
      applyEvent(this.owner, event, now, s.lastOutputAt /* still the output before this line */);
    if (counts) s.lastOutputAt = now;
    if (adapter.name === 'generic' && parsed.events.length === 0) return counts;
    const { events } = parsed;
    // Built for every line of a flood, so the usual single event is not mapped and joined.
    const kind =
      events.length === 1
        ? events[0]!.type
        : events.length > 1
          ? events.map((e) => e.type).join(',')
          : parsed.recognized
            ? 'event'
            : 'line';
    this.records.event(stream, kind, line.text, line.truncated, events.length ? { events } : null);
    return counts;
  }

  /**
   * The attempts taken since the last call whose workspace fingerprint is in, oldest first: an
   * attempt still waiting for git holds back those after it, so the detectors see them in order.
   */
  takeAttempts(): Attempt[] {
    const pending = this.s.toolResults;
    let ready = 0;
    while (ready < pending.length && !this.fingerprinting.has(pending[ready]!)) ready++;
    return pending.splice(0, ready);
  }

  /** Resolves once every fingerprint asked for so far is in. */
  async fingerprinted(): Promise<void> {
    if (this.fingerprinting.size > 0) await Promise.all(this.fingerprinting.values());
  }

  /**
   * An attempt carries the workspace as it was when it ended: an edit between two reruns is
   * seen, however fast. git is started now, so it reads the work tree at this moment, as a
   * synchronous run did; only its answer is attached later, before the supervisor takes it.
   */
  private attempted(attempt: Attempt): void {
    const answer = this.agent.workspace?.();
    if (answer instanceof Promise) {
      this.fingerprinting.set(
        attempt,
        answer.then((fingerprint) => {
          attempt.workspace = fingerprint;
          this.fingerprinting.delete(attempt);
        }),
      );
    } else if (answer !== undefined) {
      attempt.workspace = answer;
    }
    const pending = this.s.toolResults;
    if (pending.length >= MAX_PENDING_ATTEMPTS)
      this.s.toolResultsLost += pending.splice(0, MAX_PENDING_ATTEMPTS / 2).length;
    pending.push(attempt);
    this.s.history.push(attempt);
    if (this.s.history.length > HISTORY) this.s.history.shift();
  }
}
