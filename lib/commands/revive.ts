import type { CommandModule } from 'yargs';
import { adapterOptions } from '../core/adapters/index.ts';
import type { Config } from '../core/config/config.ts';
import type { Marker } from '../core/revive/marker.ts';
import { planRevives, type KnownMarker } from '../core/revive/revive-plan.ts';
import { renderReviveRows, reviveRow } from '../core/revive/revive-text.ts';
import { markerForSession, selectInterrupted, startsWithReviveMessage } from '../core/revive/session-files.ts';
import { reconcileWithSession } from '../core/revive/session-truth.ts';
import { ExitCode } from '../exit-codes.ts';
import { createLogger, redactedLogger } from '../io/log/log.ts';
import type { Logger } from '../core/ports/logger.ts';
import { listMarkers, readMarker, removeStaleTempFiles, writeMarker } from '../io/revive/markers.ts';
import { liveSessionPid } from '../io/revive/live-session.ts';
import { lockMarkers } from '../io/revive/marker-lock.ts';
import { settleEndedResume } from '../io/revive/revive-log.ts';
import { findSessionFiles, sessionDirs } from '../io/revive/session-files.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import type { Redactor } from '../core/redact/redact.ts';
import { snakeCaseKeys } from '../core/status/snake-case.ts';
import { carryOut, recordRefusedMarker } from './revive/carry-out-revives.ts';

/**
 * `deadman revive`: the post-restart hook. After `revive.delay`, it finds interrupted
 * sessions (revive markers, plus the agents' session files when `revive.session_files` says
 * so) and re-prompts each through its resume command.
 *
 * Each session is resumed by a supervising `deadman run` in a unit of its own, or detached
 * without systemd (revive-supervised.ts): it outlives the hook and is watched like any run.
 * A session found only in the agents' files first gets a marker of its own, so it takes the
 * same path. Exits 69 (do not restart) when a budget is spent; in
 * `ExecStartPost=` use the `-` prefix so that cannot fail the main service.
 */

interface ReviveArgs extends CommonArgs {
  'dry-run'?: boolean;
  json?: boolean;
  name?: string;
}

export const reviveCommand: CommandModule<object, ReviveArgs> = {
  command: 'revive',
  describe:
    'after a restart: resume interrupted agent sessions, each under a supervising deadman run of its own (bounded by revive.max_revives)',
  builder: (y) =>
    y
      .option('dry-run', {
        type: 'boolean',
        describe: 'list what would be revived; change nothing, do not wait revive.delay',
      })
      .option('json', { type: 'boolean', describe: 'print one JSON object per session, as an array' })
      .option('name', {
        type: 'string',
        describe: 'only the marker of this run name (session files are then not searched)',
      })
      .options(stateOptions),
  handler: async (args) => {
    const context = await loadContext(args);
    // The argv it prints and journals carries the prompt: kept verbatim in the marker, never shown so.
    const redactor = redactorFor(context.config);
    const logger = redactedLogger(createLogger(), redactor.text);
    const dryRun = args['dry-run'] === true;
    const { revive } = context.config;
    if (!dryRun && revive.delay > 0) await new Promise((resolve) => setTimeout(resolve, revive.delay));
    const release = dryRun
      ? () => {}
      : await lockMarkers(context.paths.markerDir, 2 * revive.start_timeout + 5_000, context.clock);
    if (release === null) {
      logger.log('warn', `another deadman revive is working in ${context.paths.markerDir}; leaving the sessions to it`);
      return;
    }
    try {
      await reviveAll(args, context, logger, dryRun, redactor);
    } finally {
      release();
    }
  },
};

/** Reads, decides and acts in one go, under the lock when it acts. */
async function reviveAll(
  args: ReviveArgs,
  context: Context,
  logger: Logger,
  dryRun: boolean,
  redactor: Redactor,
): Promise<void> {
  const { revive } = context.config;
  const now = context.clock.wall();
  const marked = await knownMarkers(context, args.name, now, dryRun, logger);
  const { markers, sessions } =
    args.name === undefined ? withSessionFiles(context.config, marked, now) : { markers: marked, sessions: [] };
  const plan = planRevives(markers, sessions, {
    now,
    maxAgeMs: revive.max_age,
    maxRevives: revive.max_revives,
    template: revive.command,
    message: revive.message,
  });
  const rows = dryRun ? plan.map((step) => reviveRow(step)) : await carryOut(plan, context, args.database, logger);
  process.stdout.write(
    args.json
      ? `${JSON.stringify(snakeCaseKeys(redactor.value(rows)), null, 2)}\n`
      : redactor.text(renderReviveRows(rows, dryRun)),
  );
  if (!dryRun && plan.some((step) => step.action === 'exhausted')) process.exitCode = ExitCode.DO_NOT_RESTART;
}

/** The markers, damaged ones logged (one line each) and left out, refused ones also recorded, ended detached resumes settled. */
async function knownMarkers(
  context: Context,
  name: string | undefined,
  now: number,
  dryRun: boolean,
  logger: Logger,
): Promise<KnownMarker[]> {
  const dir = context.paths.markerDir;
  if (!dryRun) removeStaleTempFiles(dir);
  const options = { now, setAside: !dryRun };
  const reads = name === undefined ? await listMarkers(dir, options) : [await readMarker(dir, name, options)];
  const known: KnownMarker[] = [];
  for (const read of reads) {
    if (read.status === 'problem' || read.status === 'refused') logger.log('warn', read.problem);
    if (read.status === 'refused' && !dryRun) await recordRefusedMarker(context, read.name, read.problem, logger);
    if (read.status !== 'ok') continue;
    const marker = await settleEndedResume(read.marker, now, adapterOptions(context.config.generic));
    if (marker !== read.marker && !dryRun) writeMarker(dir, marker);
    known.push({ marker, livePid: liveSessionPid(marker) });
  }
  return known;
}

/**
 * The agents' session files (`revive.session_files`): sessions deadman did not start become
 * markers of their own, and those it did are reconciled with what the file says since.
 */
function withSessionFiles(
  config: Config,
  markers: KnownMarker[],
  now: number,
): { markers: KnownMarker[]; sessions: Marker[] } {
  const { session_files: agents, max_age: maxAge, message } = config.revive;
  if (agents.length === 0) return { markers, sessions: [] };
  const found = findSessionFiles(agents, sessionDirs(config.revive), now, maxAge, startsWithReviveMessage(message));
  const byId = new Map(found.map(({ finding }) => [finding.sessionId, finding]));
  return {
    markers: markers.map((known) => ({
      ...known,
      marker: reconcileWithSession(known.marker, byId.get(known.marker.sessionId ?? '')),
    })),
    sessions: selectInterrupted(found, now, maxAge).map(({ finding }) => markerForSession(finding, now)),
  };
}
