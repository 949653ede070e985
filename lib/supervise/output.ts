import type { Adapter, AgentEvent } from '../core/events.ts';
import type { Line } from '../core/lines.ts';
import type { RunRecords } from './records.ts';

/**
 * What the child's output tells the loop: when it last made progress, the agent's session id,
 * its open tool calls, whether its turn completed, and the last lines (for incident evidence).
 * With an agent adapter only parsed events on stdout count as progress; with `generic` every
 * line on either stream does.
 */
export interface OutputState {
  lastOutputAt: number;
  sessionId: string | null;
  openTools: Map<string, number>;
  firstToolAt: number | null;
  completed: boolean;
  failed: string | null;
  lastLines: string[];
}

const LAST_LINES = 20;
const RAW_EVENT_CHARS = 4096;

export class OutputTracker {
  readonly state: OutputState;
  private readonly adapter: () => Adapter;
  private readonly records: RunRecords;
  private readonly onSession: (id: string) => void;

  constructor(startedAt: number, adapter: () => Adapter, records: RunRecords, onSession: (id: string) => void) {
    this.state = { lastOutputAt: startedAt, sessionId: null, openTools: new Map(), firstToolAt: null, completed: false, failed: null, lastLines: [] };
    this.adapter = adapter;
    this.records = records;
    this.onSession = onSession;
  }

  /** Handles one complete line; returns whether it counted as progress. */
  line(stream: 'stdout' | 'stderr', line: Line, now: number): boolean {
    const s = this.state;
    s.lastLines.push(line.text.length > 500 ? `${line.text.slice(0, 500)}…` : line.text);
    if (s.lastLines.length > LAST_LINES) s.lastLines.shift();
    const adapter = this.adapter();
    const parsed = stream === 'stdout' || adapter.name === 'generic' ? adapter.parseLine(line.text) : { recognized: false, events: [] };
    const counts = adapter.name === 'generic' || parsed.recognized;
    if (counts) s.lastOutputAt = now;
    for (const event of parsed.events) this.apply(event, now);
    const kind = parsed.events.map((e) => e.type).join(',') || (parsed.recognized ? 'event' : 'line');
    this.records.event(stream, kind, line.text.slice(0, RAW_EVENT_CHARS), line.truncated || line.text.length > RAW_EVENT_CHARS,
      parsed.events.length ? { events: parsed.events } : null);
    return counts;
  }

  private apply(event: AgentEvent, now: number): void {
    const s = this.state;
    switch (event.type) {
      case 'session':
        if (s.sessionId !== event.sessionId) {
          s.sessionId = event.sessionId;
          this.onSession(event.sessionId);
        }
        break;
      case 'tool_started':
        s.openTools.set(event.toolId, now);
        s.firstToolAt ??= now;
        break;
      case 'tool_finished':
        s.openTools.delete(event.toolId);
        break;
      case 'turn_started':
        s.completed = false;
        s.failed = null;
        break;
      case 'turn_completed':
        s.completed = true;
        s.openTools.clear();
        break;
      case 'turn_failed':
        s.failed = event.message;
        s.openTools.clear();
        break;
      case 'usage':
      case 'error':
        break;
    }
  }
}
