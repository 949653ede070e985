import { formatDuration } from '../time/duration.ts';
import { stallStatus } from '../signals/registry.ts';
import type { StallAction } from '../signals/signal-row.ts';

/**
 * The one human sentence systemd shows as `Status:`; also decides whether the run is healthy
 * enough to feed the watchdog. Pure.
 */
export interface RunSnapshot {
  now: number;
  /** Wall-clock ms at `now`: the sentence says when output last came, never how long ago. */
  wallNow: number;
  adapter: string;
  sessionId: string | null;
  lastOutputAt: number;
  processCount: number;
  evidence: { alive: number; total: number; failing: string | null };
  /** An incident that makes the run unhealthy (stall, evidence beyond grace, timeout). */
  stall: { message: string; action: StallAction } | null;
  /** A hung descendant waiting for approval (reported, but not by itself unhealthy). */
  awaitingApproval: string | null;
  recovering: string | null;
  /** The supervision loop's own poll is overdue: deadman itself may be wedged. */
  loopOverdue: boolean;
}

export function isHealthy(s: RunSnapshot): boolean {
  // Ending on the agent's own word (finished, or waiting out a usage limit) is no fault: the watchdog stays fed.
  const faulty = s.stall !== null && (s.stall.action === 'withhold' || s.stall.action === 'exit');
  return !faulty && !s.loopOverdue && s.evidence.failing === null;
}

export function statusLine(s: RunSnapshot): string {
  // A stall action a kind owns says so in its row's words; any kind's withhold or exit is STALLED.
  const own = s.stall && stallStatus(s.stall.action);
  if (s.stall && own) return [own.word, s.stall.message, ...(own.doing ? [own.doing] : [])].join(' · ');
  if (s.stall) {
    const what = s.stall.action === 'withhold' ? 'withholding watchdog' : 'stopping the run (exit 75)';
    return `STALLED · ${s.stall.message} · ${what}`;
  }
  if (s.evidence.failing) return `EVIDENCE · ${s.evidence.failing} · withholding watchdog`;
  if (s.loopOverdue) return 'DEGRADED · supervision loop overdue · withholding watchdog';
  const parts: string[] = [];
  if (s.awaitingApproval) parts.push(`AWAITING APPROVAL · ${s.awaitingApproval}`);
  else if (s.recovering) parts.push(`RECOVERING · ${s.recovering}`);
  else parts.push('ok');
  if (s.sessionId) parts.push(`${s.adapter} session ${shortId(s.sessionId)}`);
  // An age ("4s ago") is stale the moment it is sent and systemd shows it until the next
  // STATUS=; a time of day stays true until the next output changes it. To the minute, so a
  // chatty run changes the sentence (a systemd-notify spawn on the fallback path) once a minute.
  const lastAt = clockTime(s.wallNow - Math.max(0, s.now - s.lastOutputAt));
  parts.push(`last ${s.adapter === 'generic' ? 'output' : 'event'} at ${lastAt}`);
  parts.push(`${s.processCount} proc${s.processCount === 1 ? '' : 's'}`);
  if (s.evidence.total > 0) parts.push(`evidence ${s.evidence.alive}/${s.evidence.total}`);
  return parts.join(' · ');
}

/** HH:MM in local time, as the journal shows its own timestamps. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
}

function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}
