import type { z } from 'zod';
import { newMarker, type Marker } from './marker.ts';
import { SESSION_ID } from './resume-argv.ts';
import { REVIVE_OPENING_HEADS } from './revive-opening.ts';
import type { AgentKind } from '../adapters/program.ts';
import { rolloutLineSchema, transcriptLineSchema, type RolloutLine } from './session-files-schema.ts';
import { parseJsonOrUndefined } from '../json/parse-json.ts';

/**
 * What the agents' own session files say about a session: the truth where present. A turn
 * cut off by a process exit is revivable — Codex: `task_started` never closed; Claude: a
 * `tool_use` left without its result. A turn a person stopped is not — Codex `turn_aborted`,
 * Claude "[Request interrupted by user…]" — and neither is a completed one. Consecutive
 * revive prompts since the last genuine user turn are counted (Neverdie's budget: reset by a
 * genuine prompt or a completed turn). Pure: lines in, findings out.
 */

export interface SessionFinding {
  agent: AgentKind;
  sessionId: string;
  cwd: string | null;
  /** False for sub-agents and sidechains: only the root session is re-prompted. */
  root: boolean;
  /** Why the session counts as interrupted (cut off by a process exit), or null when its last turn ended or a person stopped it. */
  interruption: string | null;
  /** Set when a person stopped the last turn: it is theirs to continue, never revived. */
  stoppedByPerson: string | null;
  /** Revive prompts since the last genuine user turn or completed turn. */
  revivesSinceUserInput: number;
  /** Wall-clock milliseconds of the last line that carries a timestamp. */
  lastTimestamp: number | null;
  /** The first prompt of the session, for the revive message. */
  task: string | null;
  /** Settings of the last turn that a resume must pass again (Codex sandbox, model; Claude permission mode). */
  resumeFlags: string[];
}

function parseLines<T>(lines: readonly string[], schema: z.ZodType<T>): T[] {
  const parsed: T[] = [];
  for (const line of lines) {
    const value = parseJsonOrUndefined(line);
    if (value === undefined) continue; // a file being written when its process died can end with a cut line
    const result = schema.safeParse(value);
    if (result.success) parsed.push(result.data);
  }
  return parsed;
}

function timestampOf(line: { timestamp?: string | undefined }): number | null {
  const ms = line.timestamp === undefined ? NaN : Date.parse(line.timestamp);
  return Number.isFinite(ms) ? ms : null;
}

const SANDBOXES = new Set(['read-only', 'workspace-write', 'danger-full-access']);

/** A user turn deadman sent: it starts with the revive message (the configured one, or the default). */
export type IsReviveMessage = (text: string) => boolean;

export function startsWithReviveMessage(message?: string): IsReviveMessage {
  // The default opens with what stopped the run (revive-opening.ts): any of its openings.
  const heads = (message === undefined ? REVIVE_OPENING_HEADS : [message]).map((m) =>
    m.split('{task}')[0]!.trim().slice(0, 80),
  );
  return (text) => heads.some((head) => head !== '' && text.trimStart().startsWith(head));
}

/** One user turn: a revive prompt adds one, a genuine prompt starts the count over. */
function countUserTurn(finding: SessionFinding, text: string, isRevive: IsReviveMessage): void {
  finding.revivesSinceUserInput = isRevive(text) ? finding.revivesSinceUserInput + 1 : 0;
}

export function readCodexRollout(
  lines: readonly string[],
  isRevive: IsReviveMessage = startsWithReviveMessage(),
): SessionFinding | null {
  const rows = parseLines(lines, rolloutLineSchema);
  const meta = rows.find((row) => row.type === 'session_meta')?.payload;
  if (meta?.id === undefined) return null;
  const finding: SessionFinding = {
    agent: 'codex',
    sessionId: meta.id,
    cwd: meta.cwd ?? null,
    // Sub-agent threads record an object source ({"subagent": …}); a root run records "exec", "cli", …
    root:
      (meta.source === undefined || typeof meta.source === 'string') && !/sub.?agent/i.test(meta.thread_source ?? ''),
    interruption: null,
    stoppedByPerson: null,
    revivesSinceUserInput: 0,
    lastTimestamp: null,
    task: null,
    resumeFlags: [],
  };
  for (const row of rows) {
    finding.lastTimestamp = timestampOf(row) ?? finding.lastTimestamp;
    const payload = row.payload;
    if (row.type === 'turn_context') finding.resumeFlags = codexTurnFlags(payload);
    if (row.type !== 'event_msg') continue;
    if (payload.type === 'task_started')
      Object.assign(finding, {
        interruption: 'a turn started and never completed (the process was killed)',
        stoppedByPerson: null,
      });
    if (payload.type === 'task_complete') Object.assign(finding, { interruption: null, revivesSinceUserInput: 0 });
    if (payload.type === 'turn_aborted')
      Object.assign(finding, {
        interruption: null,
        stoppedByPerson: `a person aborted the turn (${payload.reason ?? 'interrupted'})`,
      });
    const userText =
      payload.type === 'item_completed' && payload.item?.type === 'UserMessage' ? textOf(payload.item.content) : null;
    if (userText !== null) {
      finding.task ??= userText;
      countUserTurn(finding, userText, isRevive);
    }
  }
  return finding;
}

function codexTurnFlags(context: RolloutLine['payload']): string[] {
  const flags: string[] = [];
  const sandbox = context.sandbox_policy?.type;
  if (sandbox !== undefined && SANDBOXES.has(sandbox)) flags.push('-s', sandbox);
  if (context.model) flags.push('-m', context.model);
  if (context.cwd) flags.push('-C', context.cwd);
  return flags;
}

const INTERRUPTED_BY_USER = '[Request interrupted by user';

export function readClaudeTranscript(
  lines: readonly string[],
  isRevive: IsReviveMessage = startsWithReviveMessage(),
): SessionFinding | null {
  const rows = parseLines(lines, transcriptLineSchema);
  const conversation = rows.filter(
    (row) => row.type === 'user' || row.type === 'assistant' || row.type === 'queue-operation',
  );
  const first = conversation.find((row) => row.sessionId !== undefined && row.type !== 'queue-operation');
  if (first?.sessionId === undefined) return null;
  const finding: SessionFinding = {
    agent: 'claude',
    sessionId: first.sessionId,
    cwd: first.cwd ?? null,
    root: conversation.some((row) => row.isSidechain === false),
    interruption: null,
    stoppedByPerson: null,
    revivesSinceUserInput: 0,
    lastTimestamp: null,
    task: null,
    resumeFlags: [],
  };
  const pending = new Set<string>();
  let interruptedByUser = false;
  for (const row of rows) finding.lastTimestamp = timestampOf(row) ?? finding.lastTimestamp;
  for (const row of conversation) {
    if (row.isSidechain === true) continue;
    const content = row.message?.content;
    const blocks = Array.isArray(content) ? content : [];
    if (row.type === 'assistant') {
      for (const block of blocks) if (block.type === 'tool_use' && block.id !== undefined) pending.add(block.id);
      // The model ended its turn (Codex's task_complete): the revives before it are no longer consecutive.
      if (row.message?.stop_reason === 'end_turn' && row.isApiErrorMessage !== true) finding.revivesSinceUserInput = 0;
      continue;
    }
    for (const block of blocks)
      if (block.type === 'tool_result' && block.tool_use_id !== undefined) pending.delete(block.tool_use_id);
    const text = blocks.some((b) => b.type === 'tool_result') ? null : textOf(content);
    if (text?.startsWith(INTERRUPTED_BY_USER)) {
      interruptedByUser = true;
    } else if (text !== null || (row.type === 'queue-operation' && row.operation === 'enqueue')) {
      // Someone typed (or queued) a new prompt: whatever was cut off before is theirs to handle.
      interruptedByUser = false;
      pending.clear();
      if (row.type === 'user' && text !== null) {
        finding.task ??= text;
        countUserTurn(finding, text, isRevive);
      }
      if (row.permissionMode !== undefined) finding.resumeFlags = ['--permission-mode', row.permissionMode];
    }
  }
  if (interruptedByUser) finding.stoppedByPerson = 'a person interrupted the turn ("[Request interrupted by user…]")';
  else if (pending.size > 0) finding.interruption = 'a tool call has no result (the process was killed)';
  return finding;
}

function textOf(content: string | Array<{ text?: string | undefined }> | undefined): string | null {
  if (typeof content === 'string') return content;
  const text = (content ?? []).flatMap((b) => (b.text === undefined ? [] : [b.text])).join('\n');
  return text === '' ? null : text;
}

export interface FoundSession {
  finding: SessionFinding;
  path: string;
  mtimeMs: number;
}

/**
 * The sessions worth re-prompting: root, interrupted, and fresh by BOTH the file's mtime and
 * its last timestamp (a restored backup has new mtimes but old lines; it is not revived).
 */
export function selectInterrupted(found: readonly FoundSession[], now: number, maxAgeMs: number): FoundSession[] {
  return found.filter(({ finding, mtimeMs }) => {
    if (!finding.root || finding.interruption === null || !SESSION_ID.test(finding.sessionId)) return false;
    const age = now - Math.min(mtimeMs, finding.lastTimestamp ?? mtimeMs);
    return maxAgeMs === 0 || age <= maxAgeMs;
  });
}

/**
 * A marker for a session found in files, so its revives are counted like any other — from the
 * count the file holds: with no marker (a fresh state directory) four revive prompts since the
 * last genuine one were revived as "1/2" under max_revives = 2 (issue 25).
 */
export function markerForSession(finding: SessionFinding, now: number): Marker {
  const argv =
    finding.agent === 'codex'
      ? ['codex', 'exec', '--json', '--skip-git-repo-check', ...finding.resumeFlags]
      : ['claude', '-p', '--output-format', 'stream-json', '--verbose', ...finding.resumeFlags];
  const marker = newMarker({
    name: `${finding.agent}-${finding.sessionId}`.slice(0, 100),
    adapter: finding.agent,
    argv,
    cwd: finding.cwd ?? '/',
    owner: null,
    now,
  });
  return {
    ...marker,
    sessionId: finding.sessionId,
    task: finding.task,
    state: 'interrupted',
    reason: finding.interruption,
    reviveCount: finding.revivesSinceUserInput,
  };
}
