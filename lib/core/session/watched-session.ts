import { formatDuration } from '../time/duration.ts';
import { detectInactivity } from '../detect/inactivity.ts';
import type { SessionFinding } from '../revive/session-files.ts';
import { parseJsonOrUndefined } from '../json/parse-json.ts';

/**
 * What `deadman watch` says about one persisted session: its turn state, event counts, latest
 * event, and the signal the detectors would raise — from the agent's own session file, since
 * its output is not deadman's. Pure: the file's lines, its write time and whether a live
 * process holds it open come in; nothing here signals anything.
 */

export type TurnState = 'running' | 'completed' | 'interrupted' | 'stopped';

export interface SessionFacts {
  finding: SessionFinding;
  path: string;
  lines: readonly string[];
  /** Wall ms of the file's last write. */
  mtimeMs: number;
  /** Pids of live processes holding the file open (the agent writing it). */
  holders: readonly number[];
}

export interface WatchedSession {
  agent: string;
  sessionId: string;
  cwd: string | null;
  path: string;
  turn: TurnState;
  why: string;
  events: number;
  counts: Record<string, number>;
  latest: string | null;
  lastWriteAgoMs: number;
  signals: string[];
}

/** A file written this recently belongs to a turn still being written, even with no holder seen (Claude opens it per write). */
export const GROWING_MS = 60_000;

/** The kind of one session-file line: Codex `event_msg` lines by their payload type, everything else by its type. */
function lineKind(line: string): string | null {
  const row = parseJsonOrUndefined(line) as { type?: unknown; payload?: { type?: unknown } } | null | undefined;
  if (typeof row?.type !== 'string') return null;
  return row.type === 'event_msg' && typeof row.payload?.type === 'string' ? row.payload.type : row.type;
}

function turnOf(facts: SessionFacts, now: number): { turn: TurnState; why: string } {
  const { finding, holders, mtimeMs } = facts;
  if (finding.stoppedByPerson !== null) return { turn: 'stopped', why: finding.stoppedByPerson };
  if (finding.interruption === null) return { turn: 'completed', why: 'the last turn ended' };
  if (holders.length > 0)
    return {
      turn: 'running',
      why: `open turn; ${holders.length === 1 ? 'pid' : 'pids'} ${holders.join(', ')} ${holders.length === 1 ? 'holds' : 'hold'} the session file open`,
    };
  if (now - mtimeMs < GROWING_MS)
    return { turn: 'running', why: `open turn; the session file was written ${formatDuration(now - mtimeMs)} ago` };
  return { turn: 'interrupted', why: `${finding.interruption}; no process holds the session file` };
}

export function watchSession(facts: SessionFacts, now: number, inactivityMs: number): WatchedSession {
  const counts: Record<string, number> = {};
  let latest: string | null = null;
  for (const line of facts.lines) {
    const kind = lineKind(line);
    if (kind === null) continue;
    counts[kind] = (counts[kind] ?? 0) + 1;
    latest = kind;
  }
  const { turn, why } = turnOf(facts, now);
  const signals: string[] = [];
  // Only a turn still being worked on can stall; the file's last write stands in for output.
  const silent =
    turn === 'running'
      ? detectInactivity({ now, limitMs: inactivityMs, lastOutputAt: facts.mtimeMs, lastTreeActivityAt: facts.mtimeMs })
      : null;
  if (silent) signals.push(`OUTPUT_INACTIVITY: no session write for ${formatDuration(silent.silentForMs)}`);
  if (turn === 'interrupted' && facts.finding.root) signals.push('revivable: deadman revive would resume it');
  return {
    agent: facts.finding.agent,
    sessionId: facts.finding.sessionId,
    cwd: facts.finding.cwd,
    path: facts.path,
    turn,
    why,
    events: Object.values(counts).reduce((a, b) => a + b, 0),
    counts,
    latest,
    lastWriteAgoMs: Math.max(0, now - facts.mtimeMs),
    signals,
  };
}

/** A session belongs to the repository when its cwd is the repository's root or a directory inside it. */
export function inRepository(cwd: string | null, root: string): boolean {
  return cwd !== null && (cwd === root || cwd.startsWith(root.endsWith('/') ? root : `${root}/`));
}

export function renderWatched(session: WatchedSession): string {
  const counts = Object.entries(session.counts)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return [
    `${session.agent} session ${session.sessionId}`,
    `  workspace  ${session.cwd ?? '(unknown)'}`,
    `  turn       ${session.turn}: ${session.why}`,
    `  events     ${session.events} (${counts || 'none'})`,
    `  latest     ${session.latest ?? '(none)'}, written ${formatDuration(session.lastWriteAgoMs)} ago`,
    `  signals    ${session.signals.length ? session.signals.join('; ') : 'none'}`,
    `  file       ${session.path}`,
  ].join('\n');
}
