import type { AgentEvent } from '../../core/adapters/agent-events.ts';
import { withoutKey } from '../../core/adapters/without-key.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import type { PassPorts } from '../ports.ts';
import type { OutputState } from './output-state.ts';

/**
 * How each parsed agent event changes what the output tells the loop. Kept apart from
 * OutputTracker, which owns the state and calls this with it, so the tracker holds only the
 * plumbing (bytes, lines, attempts waiting on git) and one event's effect reads in one place.
 */
const FILES_CHANGED = 100;
/**
 * An agent runs a handful of tools at once; a stream of starts that never finish (garbage, a
 * broken agent) must not grow these maps for ever. Past the bound new starts go untracked and
 * the oldest stay: the ones the hung detector would blame first.
 */
export const MAX_OPEN_TOOLS = 1024;

/** The tracker an event reaches: the state it changes, the pass it tells, where a finished attempt goes. */
export interface EventOwner {
  readonly state: OutputState;
  readonly agent: Pick<PassPorts, 'onSession' | 'onTurnCompleted'>;
  attempted(attempt: Attempt): void;
}

/** `previousOutputAt` is when the output before this event's line came. */
export function applyEvent(owner: EventOwner, event: AgentEvent, now: number, previousOutputAt: number): void {
  const s = owner.state;
  switch (event.type) {
    case 'session':
      if (s.sessionId !== event.sessionId) {
        s.sessionId = event.sessionId;
        owner.agent.onSession(event.sessionId);
      }
      break;
    case 'tool_started':
    case 'tool_finished':
      applyTool(owner, event, now, previousOutputAt);
      break;
    case 'turn_started':
      s.completed = false;
      s.failed = null;
      s.finishedAt = null;
      break;
    case 'turn_completed':
      s.completed = true;
      s.finishedAt = now;
      owner.attempted({ command: '(turn)', exitCode: null, outputTail: '', ok: true, turn: true });
      forgetOpenTools(s);
      owner.agent.onTurnCompleted?.();
      break;
    case 'turn_failed':
      s.failed = event.message;
      s.finishedAt = now;
      forgetOpenTools(s);
      break;
    case 'usage_limit':
      s.usageLimit = {
        resetsAtSec: event.resetsAtSec,
        resetsInSec: event.resetsInSec,
        resetsAtClock: event.resetsAtClock,
        throttle: event.throttle,
        message: event.message,
        at: now,
      };
      break;
    case 'credit_exhausted':
      s.creditExhausted ??= { message: event.message, at: now };
      break;
    case 'compacting':
      s.compactingAt = now;
      break;
    case 'usage':
      s.usage.tokens += event.usage.inputTokens + event.usage.outputTokens;
      if (event.totalCostUsd !== undefined) s.usage.costUsd = event.totalCostUsd;
      break;
    case 'files_changed':
      s.filesChanged = [...s.filesChanged.filter((path) => !event.paths.includes(path)), ...event.paths].slice(
        -FILES_CHANGED,
      );
      break;
    case 'error':
      break;
  }
}

/** A tool call opens with the window its process may have been born in (since the output before it), and closes as an attempt. */
function applyTool(
  owner: EventOwner,
  event: Extract<AgentEvent, { type: 'tool_started' | 'tool_finished' }>,
  now: number,
  previousOutputAt: number,
): void {
  const s = owner.state;
  if (event.type === 'tool_started') {
    s.firstToolAt ??= now;
    if (s.openTools.size >= MAX_OPEN_TOOLS && !s.openTools.has(event.toolId)) return;
    if (event.command !== null) s.openToolCommands.set(event.toolId, event.command);
    if (!s.openTools.has(event.toolId)) s.openToolWindows.set(event.toolId, previousOutputAt);
    s.openTools.set(event.toolId, now);
    return;
  }
  s.openTools = withoutKey(s.openTools, event.toolId);
  const command = s.openToolCommands.get(event.toolId);
  s.openToolCommands = withoutKey(s.openToolCommands, event.toolId);
  s.openToolWindows = withoutKey(s.openToolWindows, event.toolId);
  // Only shell commands have a signature; other tools neither extend nor break a streak.
  if (command !== undefined)
    owner.attempted({ command, exitCode: event.exitCode, outputTail: event.outputTail ?? '', ok: event.ok });
}

/**
 * A turn's end ends its tool calls: those that never reported an end (killed with their turn)
 * are forgotten, their commands with them, or every such turn would leave its commands behind
 * for the rest of the run. Fresh maps rather than clear(): see withoutKey.
 */
function forgetOpenTools(s: OutputState): void {
  Object.assign(s, { openTools: new Map(), openToolCommands: new Map(), openToolWindows: new Map() });
}
