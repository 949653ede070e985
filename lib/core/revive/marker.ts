import type { AdapterName } from '../adapters/agent-events.ts';
import { formatAge, formatDuration } from '../time/duration.ts';
import type { Marker, MarkerOwner } from './marker-schema.ts';
import { unresumableReason } from './resume-argv.ts';
import { commandIdentity, identityDifference, type CommandIdentity } from './command-identity.ts';
import { MARKER_VERSION } from './marker-version.ts';

/**
 * The life of a revive marker, as pure functions over plain data with time passed in:
 *
 *   fresh start ──▶ running ──clean completion──▶ completed (revive count back to 0)
 *                     │  ▲
 *    process exit,    │  │ revived (count + 1)
 *    crash, reboot    ▼  │
 *                  interrupted ──count reached max_revives──▶ exhausted (do not restart)
 *
 * A turn the agent completes while it keeps running also sets the count back to 0; a person's
 * Ctrl-C at a terminal ends `running` as completed (theirs to continue, never revived), and so
 * does a run closed for what only a person can lift (spent credit), with its reason: settled.
 *
 * A `running` marker whose owner is dead is an interruption nobody got to record.
 */

export type { Marker, MarkerOwner } from './marker-schema.ts';

export interface NewMarker {
  name: string;
  adapter: AdapterName;
  argv: readonly string[];
  cwd: string;
  owner: MarkerOwner | null;
  now: number;
  runTag?: string | null;
}

/** The marker written before a fresh (not resumed) start. */
export function newMarker(input: NewMarker): Marker {
  const { task } = commandIdentity(input.adapter, input.argv, input.cwd);
  return {
    version: MARKER_VERSION,
    name: input.name,
    adapter: input.adapter,
    sessionId: null,
    argv: [...input.argv],
    cwd: input.cwd,
    runTag: input.runTag ?? null,
    task,
    startedAt: input.now,
    updatedAt: input.now,
    state: 'running',
    reason: null,
    reviveCount: 0,
    owner: input.owner,
    detachedLog: null,
  };
}

export interface Takeover {
  owner: MarkerOwner;
  /** The tag in the resumed agent's environment. */
  runTag: string | null;
  /** Set when launched detached: its output. */
  detachedLog?: string | null;
}

/** Taken over by a resume: one more revive used, a new owner and tag, and (when detached) its log. */
export function markRevived(marker: Marker, takeover: Takeover, now: number): Marker {
  const reviveCount = marker.reviveCount + 1;
  return {
    ...marker,
    state: 'running',
    owner: takeover.owner,
    runTag: takeover.runTag,
    detachedLog: takeover.detachedLog ?? null,
    reviveCount,
    updatedAt: now,
    reason: `revive ${reviveCount} of an interrupted session`,
  };
}

export function withSessionId(marker: Marker, sessionId: string, now: number): Marker {
  return { ...marker, sessionId, updatedAt: now };
}

/** A warning when a resumed run reports another session than the one it was asked to resume. */
export function sessionMismatch(marker: Marker, reported: string): string | null {
  if (marker.reviveCount === 0 || marker.sessionId === null || marker.sessionId === reported) return null;
  return `asked to resume session ${marker.sessionId} but the agent reports ${reported} (a new session was started)`;
}

/** Refreshes the age; a long run should do this now and then so a late crash is still "recent". */
export function touchMarker(marker: Marker, now: number): Marker {
  return { ...marker, updatedAt: now };
}

/** Completion event + exit 0 + evidence holding: the budget starts over. */
export function markCompleted(marker: Marker, now: number): Marker {
  return { ...marker, state: 'completed', reason: 'completed', reviveCount: 0, updatedAt: now };
}

/**
 * The agent completed a turn and its process goes on (a session fed more turns): the budget
 * counts consecutive revives that did not get a turn done, so it starts over; still running.
 */
export function markTurnCompleted(marker: Marker, now: number): Marker {
  return { ...marker, reviveCount: 0, updatedAt: now };
}

const SETTLED = 'settled: ';

/** Closed on purpose, not completed: never revived (the reason says why), the budget starts over. */
export function markSettled(marker: Marker, reason: string, now: number): Marker {
  return { ...marker, state: 'completed', reason: `${SETTLED}${reason}`, reviveCount: 0, updatedAt: now };
}

/** A marker markSettled wrote: the next start says why it does not resume. */
function isSettled(marker: Marker): boolean {
  return marker.state === 'completed' && marker.reason !== null && marker.reason.startsWith(SETTLED);
}

export function markInterrupted(marker: Marker, reason: string, now: number): Marker {
  return { ...marker, state: 'interrupted', reason, updatedAt: now };
}

/** A person stopped the session's turn: theirs to continue, never revived (done, as far as deadman goes). */
export function markStoppedByPerson(marker: Marker, reason: string, now: number): Marker {
  return { ...marker, state: 'completed', reason, updatedAt: now };
}

export interface RunEnd {
  clean: boolean;
  /** Closed for a reason only a person can lift (its kind's row: spent credit): never resumed by the next start. */
  settles?: boolean | undefined;
  outcome: string;
  reason: string;
  /** The stop signal deadman received, or null. */
  stopSignal: string | null;
  /** Run as a systemd unit's (or launchd job's) main process, not from a terminal. */
  underUnit: boolean;
}

/**
 * How the end of a `deadman run` leaves its marker. Ctrl-C at a terminal (SIGINT, no unit) is
 * a person stopping the turn; under a unit SIGINT is a configured KillSignal= — a stop for a
 * reboot as much as SIGTERM is — so that is an interruption to revive.
 */
export function markRunEnded(marker: Marker, end: RunEnd, now: number): Marker {
  // Closed on purpose without completing (spent credit): settled, with why, so the next start does not resume it into the same wall.
  if (end.settles) return markSettled(marker, `${end.outcome}: ${end.reason}`, now);
  if (end.clean) return markCompleted(marker, now);
  if (end.stopSignal === 'SIGINT' && !end.underUnit)
    return markStoppedByPerson(marker, 'a person stopped the run (SIGINT at a terminal)', now);
  return markInterrupted(marker, `${end.outcome}: ${end.reason}`, now);
}

export function markExhausted(marker: Marker, reason: string, now: number): Marker {
  return { ...marker, state: 'exhausted', reason, updatedAt: now };
}

export interface ReviveSettings {
  /** Wall-clock milliseconds. */
  now: number;
  /** A live process of the session (its owner, or one carrying the run's tag), or null. */
  livePid: number | null;
  /** The command line given to `deadman run`: it wins over the marker's (see command-identity.ts). */
  current?: CommandIdentity | undefined;
  /** `revive.max_age`; 0 means no age limit. */
  maxAgeMs: number;
  /** `revive.max_revives`; 0 turns reviving off. */
  maxRevives: number;
  /** `revive.command`, when configured. */
  template?: readonly string[] | undefined;
  /** Resumed in a terminal under `deadman agent` (interactive-resume.ts). */
  interactive?: boolean;
}

export type ReviveDecision =
  | { revive: true; sessionId: string; attempt: number; budget: number }
  /** fresh: start the original command; owned: another live process has it, touch nothing; exhausted: exit DO_NOT_RESTART. */
  | { revive: false; outcome: 'fresh' | 'owned' | 'exhausted'; reason: string };

export function decideRevive(marker: Marker | null, settings: ReviveSettings): ReviveDecision {
  const fresh = (reason: string): ReviveDecision => ({ revive: false, outcome: 'fresh', reason });
  if (marker === null) return fresh('no marker: first run');
  if (marker.state === 'completed')
    return fresh(
      isSettled(marker)
        ? `the last run was settled, not resumed (${marker.reason!.slice(SETTLED.length)})`
        : 'the last run completed',
    );
  if (settings.livePid !== null) {
    return {
      revive: false,
      outcome: 'owned',
      reason: `its session still has a live process (pid ${settings.livePid})`,
    };
  }
  const different =
    settings.current && identityDifference(settings.current, commandIdentity(marker.adapter, marker.argv, marker.cwd));
  if (different) return fresh(`${different}; running the command given`);
  if (marker.state === 'exhausted') return fresh('the revive budget was spent earlier; starting over');
  if (settings.maxRevives === 0) return fresh('reviving is off (revive.max_revives = 0)');
  const unresumable = unresumableReason(marker, settings.template, settings.interactive);
  if (unresumable !== null) return fresh(unresumable);
  const age = settings.now - marker.updatedAt;
  if (settings.maxAgeMs > 0 && age > settings.maxAgeMs) {
    return fresh(
      `interrupted ${formatAge(age)} ago, longer than revive.max_age (${formatDuration(settings.maxAgeMs)})`,
    );
  }
  if (marker.reviveCount >= settings.maxRevives) {
    return {
      revive: false,
      outcome: 'exhausted',
      reason: `revive budget spent: ${marker.reviveCount} of ${settings.maxRevives} revives without a clean completion`,
    };
  }
  return { revive: true, sessionId: marker.sessionId!, attempt: marker.reviveCount + 1, budget: settings.maxRevives };
}
