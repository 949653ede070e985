import {
  decideRevive, markCompleted, markExhausted, markInterrupted, markRevived, newMarker, sessionMismatch, touchMarker, withSessionId, type Marker,
} from '../core/revive/marker.ts';
import { buildResumeArgv, reviveMessage } from '../core/revive/resume-argv.ts';
import type { AdapterName } from '../core/process/events.ts';
import { adapterOptions, detectAdapter } from '../core/adapters/index.ts';
import { ExitCode } from '../exit-codes.ts';
import type { Logger } from '../io/log.ts';
import { currentOwner, isOwnerAlive, markerIsCompleted, readMarker, writeMarker, type MarkerRead } from '../io/revive/markers.ts';
import { lockMarkers } from '../io/revive/marker-lock.ts';
import { settleEndedResume } from '../io/revive/revive-log.ts';
import { systemClock } from '../io/clock.ts';
import type { RunResult } from '../supervise/outcome.ts';
import type { Config } from '../core/config/config.ts';
import type { Store } from '../io/store/store.ts';
import type { Context } from './command-context.ts';

/**
 * The revive marker around one `deadman run` (write-ahead): read this name's marker, decide
 * between a fresh start and the resume of an interrupted session (inline revive, for one-shot
 * agents like `codex exec`), keep the marker current while the run goes, and record how it
 * ended — `completed` resets the budget, anything else leaves it `interrupted` for next time.
 */

export interface Refusal {
  exitCode: number;
  outcome: 'revive-exhausted' | 'owned-elsewhere';
  reason: string;
}

/** What the revive decision reads about the run about to start. */
export interface ReviveInput {
  name: string;
  command: string[];
  cwd: string;
  config: Config;
  context: Context;
  store: Store;
  logger: Logger;
}

const HEARTBEAT_MS = 60_000;

export class ReviveGuard {
  refusal: Refusal | null = null;
  argv: string[];
  adapter: AdapterName | null = null;
  sessionId: string | null = null;
  note = '';
  private marker: Marker | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly markerDir: string;
  private readonly logger: Logger;

  private constructor(input: ReviveInput) {
    this.argv = input.command;
    this.markerDir = input.context.paths.markerDir;
    this.logger = input.logger;
  }

  /** Read, decide and take the marker under the marker lock, so a concurrent `deadman revive` cannot resume the same session. */
  static async prepare(input: ReviveInput): Promise<ReviveGuard> {
    const guard = new ReviveGuard(input);
    const release = await lockMarkers(guard.markerDir, input.config.revive.start_timeout);
    if (!release) input.logger.log('warn', `could not take the marker lock in ${guard.markerDir}; deciding without it`);
    try {
      await guard.decide(input);
    } finally {
      release?.();
    }
    return guard;
  }

  private async decide(input: ReviveInput): Promise<void> {
    const { config, name } = input;
    const read: MarkerRead = markerIsCompleted(this.markerDir, name) ? { status: 'missing', name } : await readMarker(this.markerDir, name);
    if (read.status === 'problem') this.logger.log('warn', read.problem);
    const now = systemClock.wall();
    // A resume launched detached by `deadman revive` may have finished since: settle it first.
    const previous = read.status === 'ok' ? await settleEndedResume(read.marker, now, adapterOptions(config.generic)) : null;
    const decision = decideRevive(previous, {
      now, ownerAlive: isOwnerAlive(previous?.owner ?? null), maxAgeMs: config.revive.max_age, maxRevives: config.revive.max_revives, template: config.revive.command,
    });
    if (!decision.revive && decision.outcome === 'owned') {
      this.refusal = { exitCode: ExitCode.STALLED_RESTART, outcome: 'owned-elsewhere', reason: `run "${name}" is ${decision.reason}; not starting a second supervisor` };
      return;
    }
    if (!decision.revive && decision.outcome === 'exhausted') {
      this.save(markExhausted(previous!, decision.reason, now));
      this.refusal = { exitCode: ExitCode.DO_NOT_RESTART, outcome: 'revive-exhausted', reason: decision.reason };
      return;
    }
    if (decision.revive && previous) {
      const message = reviveMessage(previous.task, config.revive.message);
      this.argv = buildResumeArgv(previous, { message, template: config.revive.command });
      this.adapter = previous.adapter;
      this.sessionId = decision.sessionId;
      this.note = `revived session ${decision.sessionId} (${decision.attempt}/${decision.budget})`;
      this.save(markRevived(previous, currentOwner(), now));
      input.store.insert('revives', {
        name, session_id: decision.sessionId, at: now, attempt: decision.attempt, budget: decision.budget, source: 'inline', argv: this.argv, outcome: 'started',
      });
      this.logger.log('notice', this.note);
    } else {
      if (previous && previous.state !== 'completed' && !decision.revive) this.logger.log('info', `not reviving "${name}": ${decision.reason}`);
      this.save(newMarker({ name, adapter: detectAdapter(input.command, config.adapter), argv: input.command, cwd: input.cwd, owner: currentOwner(), now }));
    }
    this.heartbeat = setInterval(() => this.marker && this.save(touchMarker(this.marker, systemClock.wall())), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  sessionStarted(sessionId: string, logger: Logger): void {
    if (!this.marker) return;
    const mismatch = sessionMismatch(this.marker, sessionId);
    if (mismatch) logger.log('warn', mismatch);
    this.save(withSessionId(this.marker, sessionId, systemClock.wall()));
  }

  finish(result: RunResult): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!this.marker) return;
    const now = systemClock.wall();
    this.save(result.clean ? markCompleted(this.marker, now) : markInterrupted(this.marker, `${result.outcome}: ${result.reason}`, now));
  }

  private save(marker: Marker): void {
    this.marker = marker;
    try {
      writeMarker(this.markerDir, marker);
    } catch (error) {
      this.logger.log('warn', `could not write the revive marker in ${this.markerDir}: ${(error as Error).message}`);
    }
  }
}
