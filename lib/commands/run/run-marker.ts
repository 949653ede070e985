import {
  decideRevive,
  markExhausted,
  markRevived,
  markRunEnded,
  markTurnCompleted,
  newMarker,
  sessionMismatch,
  touchMarker,
  withSessionId,
  type Marker,
  type ReviveDecision,
} from '../../core/revive/marker.ts';
import { detectAdapter } from '../../core/adapters/index.ts';
import { ExitCode } from '../../exit-codes.ts';
import { reportFault } from '../../io/log/log.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { currentOwner, writeMarker } from '../../io/revive/markers.ts';
import { readPreviousMarker } from '../../io/revive/previous-marker.ts';
import { liveSessionPid } from '../../io/revive/live-session.ts';
import { newRunTag } from '../../io/revive/new-run-tag.ts';
import { commandIdentity } from '../../core/revive/command-identity.ts';
import { lockMarkers } from '../../io/revive/marker-lock.ts';
import type { PassResult } from '../../supervise/run/outcome.ts';
import type { LoopClock } from '../../supervise/ports.ts';
import { resumeStart, type ReviveInput, type StartDecision } from './start-decision.ts';

/**
 * The revive marker around one `deadman run` (write-ahead): read this name's marker, decide
 * between a fresh start and the resume of an interrupted session (inline revive, for one-shot
 * agents like `codex exec`), keep the marker current while the run goes, and record how it
 * ended — `completed` resets the budget, a person's Ctrl-C is theirs (never revived), anything
 * else leaves it `interrupted` for next time (markRunEnded).
 */

const HEARTBEAT_MS = 60_000;
/**
 * A new session is written to the marker at once, unless another new session was written less
 * than this long ago: then once, at the end of that gap, with the newest session. A stream of
 * short sessions (many one-turn jobs under one supervisor, issue 36) paid a signed atomic write
 * and two fsyncs for every one, 28 ms a session on a busy disk; now at most one a second. The
 * first session, the one an agent usually has, is written as before, at once.
 */
export const SESSION_WRITE_GAP_MS = 1_000;

export class RunMarkerKeeper {
  /** The tag the child carries in its environment (RUN_TAG_ENV), stored in the marker. */
  readonly runTag: string;
  private marker: Marker | null = null;
  private ended = false;
  private markerWritable = true;
  /** The loop clock's monotonic time of the last write of a new session, and whether the next one waits for SESSION_WRITE_GAP_MS. */
  private sessionWrittenAt = -Infinity;
  private sessionWriteWaits = false;
  private readonly markerDir: string;
  private readonly logger: Logger;
  private readonly clock: LoopClock;
  #start: StartDecision | null = null;

  private constructor(input: ReviveInput) {
    this.runTag = newRunTag();
    this.markerDir = input.context.paths.markerDir;
    this.logger = input.logger;
    this.clock = input.context.clock;
  }

  /** Read, decide and take the marker under the marker lock, so a concurrent `deadman revive` cannot resume the same session. */
  static async prepare(input: ReviveInput): Promise<RunMarkerKeeper> {
    const keeper = new RunMarkerKeeper(input);
    // A marker directory that cannot be written (read-only, full, not creatable) costs the
    // lock, not the run: the work is what must not stop.
    const release = await lockMarkers(keeper.markerDir, input.config.revive.start_timeout, keeper.clock).catch(
      (error: Error) => {
        reportFault(
          input.logger,
          'revive marker',
          keeper.markerDir,
          `could not take the marker lock in ${keeper.markerDir} (${error.message}); deciding without it`,
        );
        return undefined;
      },
    );
    if (release === null)
      reportFault(
        input.logger,
        'revive marker',
        keeper.markerDir,
        `could not take the marker lock in ${keeper.markerDir}; deciding without it`,
      );
    try {
      keeper.#start = await keeper.decide(input);
    } finally {
      release?.();
    }
    return keeper;
  }

  /** The decision `prepare` took under the lock. */
  get start(): StartDecision {
    return this.#start!;
  }

  private async decide(input: ReviveInput): Promise<StartDecision> {
    const { config, name } = input;
    const now = this.clock.wall();
    const previous = await readPreviousMarker(this.markerDir, name, now, input);
    const current = commandIdentity(detectAdapter(input.command, config.adapter), input.command, input.cwd);
    const interactive = input.interactive === true;
    const decision = decideRevive(previous, {
      now,
      livePid: previous && liveSessionPid(previous),
      current,
      maxAgeMs: config.revive.max_age,
      maxRevives: config.revive.max_revives,
      template: config.revive.command,
      interactive,
    });
    if (!decision.revive && decision.outcome === 'owned') {
      return {
        refusal: {
          exitCode: ExitCode.STALLED_RESTART,
          outcome: 'owned-elsewhere',
          reason: `run "${name}": ${decision.reason}; not starting a second supervisor`,
        },
      };
    }
    // A person at the terminal is not a restart loop to stop: past the budget they get a fresh session.
    if (!decision.revive && decision.outcome === 'exhausted' && !interactive) {
      this.save(markExhausted(previous!, decision.reason, now));
      return { refusal: { exitCode: ExitCode.DO_NOT_RESTART, outcome: 'revive-exhausted', reason: decision.reason } };
    }
    let start: StartDecision = { refusal: null, argv: input.command, adapter: null, sessionId: null, note: '' };
    if (decision.revive && previous) {
      start = this.startRevived(input, previous, decision, now);
    } else {
      if (previous && previous.state !== 'completed' && !decision.revive)
        this.logger.log('notice', `not reviving "${name}": ${decision.reason}`);
      this.save(
        newMarker({
          name,
          adapter: current.adapter,
          argv: input.command,
          cwd: input.cwd,
          owner: currentOwner(),
          runTag: this.runTag,
          now,
        }),
      );
    }
    void this.beat();
    return start;
  }

  /** The resume of the marker's session: its command line, the marker marked revived, the revive recorded. */
  private startRevived(
    input: ReviveInput,
    previous: Marker,
    decision: Extract<ReviveDecision, { revive: true }>,
    now: number,
  ): StartDecision {
    const { name } = input;
    const start = resumeStart(input, previous, decision);
    this.save(markRevived(previous, { owner: currentOwner(), runTag: this.runTag }, now));
    input.records.revive({
      name,
      sessionId: decision.sessionId,
      attempt: decision.attempt,
      budget: decision.budget,
      argv: start.argv,
      source: 'inline',
      outcome: 'started',
    });
    this.logger.log('notice', start.note);
    return start;
  }

  /** Touches the marker every HEARTBEAT_MS until the run ends; the clock's waits never keep the process alive, as a run's end is not always `finish`. */
  private async beat(): Promise<void> {
    for (;;) {
      await this.clock.sleep(HEARTBEAT_MS);
      if (this.ended || !this.marker) return;
      this.save(touchMarker(this.marker, this.clock.wall()));
    }
  }

  /** The session the marker names now (the revived one, or the one the agent reported since). */
  get markedSession(): string | null {
    return this.marker?.sessionId ?? null;
  }

  sessionStarted(sessionId: string, logger: Logger): void {
    if (!this.marker) return;
    const mismatch = sessionMismatch(this.marker, sessionId);
    if (mismatch) logger.log('warn', mismatch);
    const marker = withSessionId(this.marker, sessionId, this.clock.wall());
    const wait = this.sessionWrittenAt + SESSION_WRITE_GAP_MS - this.clock.monotonic();
    if (wait <= 0) {
      this.saveSession(marker);
      return;
    }
    this.marker = marker;
    if (this.sessionWriteWaits) return;
    this.sessionWriteWaits = true;
    void this.clock.sleep(wait).then(() => {
      this.sessionWriteWaits = false;
      // An ended run's marker was written by finish(), with the newest session in it.
      if (!this.ended && this.marker) this.saveSession(this.marker);
    });
  }

  private saveSession(marker: Marker): void {
    this.sessionWrittenAt = this.clock.monotonic();
    this.save(marker);
  }

  /** The revives that led here worked: a later interruption starts the count over (one write, only when it changes). */
  turnCompleted(): void {
    if (this.marker && this.marker.reviveCount > 0) this.save(markTurnCompleted(this.marker, this.clock.wall()));
  }

  finish(result: Pick<PassResult, 'clean' | 'settles' | 'outcome' | 'reason' | 'reraise'>, underUnit: boolean): void {
    this.ended = true;
    if (!this.marker) return;
    this.save(markRunEnded(this.marker, { ...result, stopSignal: result.reraise, underUnit }, this.clock.wall()));
  }

  private save(marker: Marker): void {
    this.marker = marker;
    if (!this.markerWritable) return;
    try {
      writeMarker(this.markerDir, marker);
    } catch (error) {
      // Said once: the heartbeat would repeat it every minute.
      this.markerWritable = false;
      reportFault(
        this.logger,
        'revive marker',
        this.markerDir,
        `could not write the revive marker in ${this.markerDir}: ${(error as Error).message}`,
      );
    }
  }
}
