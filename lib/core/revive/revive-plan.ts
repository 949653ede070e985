import { decideRevive, type Marker, type ReviveSettings } from './marker.ts';
import { buildResumeArgv, reviveMessage } from './resume-argv.ts';
import { reviveOpening } from './revive-opening.ts';
import { isInteractiveCommand } from './interactive-resume.ts';
import { formatArgv } from '../process/format-argv.ts';

/**
 * What `deadman revive` will do with each interrupted session it knows of: from the markers
 * (sessions deadman ran) and from the agents' own session files (sessions it did not). A
 * session with a marker is decided by its marker alone, so it is never revived twice.
 */

export type ReviveSource = 'marker' | 'codex-session' | 'claude-session';

export type PlannedRevive =
  | {
      action: 'revive';
      source: ReviveSource;
      marker: Marker;
      sessionId: string;
      attempt: number;
      budget: number;
      argv: string[];
    }
  | { action: 'exhausted'; source: ReviveSource; marker: Marker; reason: string }
  | { action: 'skip'; source: ReviveSource; marker: Marker; reason: string };

export interface KnownMarker {
  marker: Marker;
  livePid: number | null;
}

export interface PlanSettings extends Omit<ReviveSettings, 'livePid' | 'current'> {
  /** `revive.message`. */
  message?: string | undefined;
}

export function planRevives(
  markers: readonly KnownMarker[],
  sessions: readonly Marker[],
  settings: PlanSettings,
): PlannedRevive[] {
  const covered = new Set(markers.map(({ marker }) => marker.sessionId));
  const candidates = [
    ...markers.map((known) => ({ ...known, source: 'marker' as const })),
    ...sessions
      .filter((marker) => !covered.has(marker.sessionId))
      .map((marker) => ({ marker, livePid: null, source: sessionSource(marker) })),
  ];
  return candidates.map(({ marker, livePid, source }): PlannedRevive => {
    const interactive = source === 'marker' && isInteractiveCommand(marker.adapter, marker.argv);
    const decision = decideRevive(marker, { ...settings, livePid, interactive });
    // `deadman revive` runs without a terminal (a unit's hook): an interactive session waits for its person.
    if (interactive && (decision.revive || decision.outcome === 'exhausted')) {
      return {
        action: 'skip',
        source,
        marker,
        reason: `an interactive session: resumed only in a terminal, by its command under deadman agent (deadman agent -- ${formatArgv(marker.argv, { quoting: 'shell', maxArgLength: 80 })})`,
      };
    }
    if (decision.revive) {
      const argv = buildResumeArgv(marker, {
        message: reviveMessage(marker.task, settings.message, reviveOpening(marker)),
        template: settings.template,
      });
      return {
        action: 'revive',
        source,
        marker,
        sessionId: decision.sessionId,
        attempt: decision.attempt,
        budget: decision.budget,
        argv,
      };
    }
    return decision.outcome === 'exhausted'
      ? { action: 'exhausted', source, marker, reason: decision.reason }
      : { action: 'skip', source, marker, reason: decision.reason };
  });
}

function sessionSource(marker: Marker): ReviveSource {
  return marker.adapter === 'claude' ? 'claude-session' : 'codex-session';
}
