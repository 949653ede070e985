import type { CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { renderWatched, inRepository, watchSession, type WatchedSession } from '../core/session/watched-session.ts';
import { formatDuration } from '../core/time/duration.ts';
import { ExitCode } from '../exit-codes.ts';
import { sessionDirs } from '../io/revive/session-files.ts';
import { repositoryRoot, repositorySessions } from '../io/session/repository.ts';
import { fileHolders } from '../io/session/session-file-holders.ts';
import { loadContext, type CommonArgs } from './shared/command-context.ts';

/**
 * `deadman watch [--session ID] [--once]`: observe-only on a persisted agent session of the
 * current repository (Codex rollout, Claude transcript): turn state, event counts, the latest
 * event and what the detectors would raise. It reads files and /proc; it never signals.
 */

interface WatchArgs extends CommonArgs {
  session?: string;
  once?: boolean;
  json?: boolean;
}

/** Without --session, sessions older than this are not read (a long history costs one stat per file). */
const RECENT_MS = 7 * 86_400_000;
const LOOK_EVERY_MS = 2_000;

export const watchCommand: CommandModule<object, WatchArgs> = {
  command: 'watch',
  describe:
    'show a persisted Codex or Claude session of this repository: turn state, events, signals (never signals a process)',
  builder: (y) =>
    y
      .option('session', {
        type: 'string',
        describe: 'the session id (default: the newest session of this repository in the last 7 days)',
      })
      .option('once', { type: 'boolean', describe: 'look once and exit (default: look every 2s until interrupted)' })
      .option('json', { type: 'boolean', describe: 'print the view as JSON' }),
  handler: async (args) => {
    const { config, clock } = await loadContext(args);
    const root = repositoryRoot(process.cwd());
    const look = () =>
      lookAtSession(root, args.session, {
        dirs: sessionDirs(config.revive),
        inactivityMs: config.inactivity,
        wall: () => clock.wall(),
      });
    const print = (view: WatchedSession) =>
      process.stdout.write(args.json ? `${JSON.stringify(view)}\n` : `${renderWatched(view)}\n`);
    const first = look();
    if (typeof first === 'string') {
      process.stderr.write(`deadman: ${first}\n`);
      process.exitCode = ExitCode.ATTENTION;
      return;
    }
    print(first);
    if (args.once) return;
    await watchUntilInterrupted(look, print, first);
  },
};

/** Both agents, whatever revive.session_files opts revive into: watching is asked for explicitly. */
const AGENTS = ['codex', 'claude'] as const;

interface LookOptions {
  dirs: ReturnType<typeof sessionDirs>;
  inactivityMs: number;
  wall: () => number;
}

/** The view of the chosen session, or why there is none to show. */
function lookAtSession(root: string, sessionId: string | undefined, options: LookOptions): WatchedSession | string {
  const now = options.wall();
  const chosen = sessionId
    ? repositorySessions(AGENTS, options.dirs, '/', now, 0).find((f) => f.finding.sessionId === sessionId)
    : repositorySessions(AGENTS, options.dirs, root, now, RECENT_MS)[0];
  if (!chosen) {
    return sessionId
      ? `no session ${sessionId} in ${options.dirs.codexHome}/sessions or ${options.dirs.claudeConfigDir}/projects`
      : `no Codex or Claude session of ${root} in the last ${formatDuration(RECENT_MS)} (looked in ${options.dirs.codexHome}/sessions and ${options.dirs.claudeConfigDir}/projects)`;
  }
  if (!inRepository(chosen.finding.cwd, root))
    return `session ${sessionId} is not a session of ${root} (its workspace is ${chosen.finding.cwd ?? 'unknown'}): run deadman watch there`;
  const lines = readFileSync(chosen.path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  return watchSession({ ...chosen, lines, holders: fileHolders(chosen.path) }, now, options.inactivityMs);
}

/** Looks again every few seconds and prints the view when it changed; ends on SIGINT or SIGTERM. */
async function watchUntilInterrupted(
  look: () => WatchedSession | string,
  print: (view: WatchedSession) => void,
  first: WatchedSession,
): Promise<void> {
  let shown = describeChange(first);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const view = look();
      if (typeof view === 'string' || describeChange(view) === shown) return;
      shown = describeChange(view);
      print(view);
    }, LOOK_EVERY_MS);
    const stop = () => {
      clearInterval(timer);
      resolve();
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
}

/** What counts as a change worth printing again (not the age of the last write, which grows by itself). */
function describeChange(view: WatchedSession): string {
  return JSON.stringify([view.sessionId, view.turn, view.events, view.latest, view.signals]);
}
