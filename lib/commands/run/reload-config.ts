import { DeadmanError } from '../../exit-codes.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { refuseCrossFieldProblems } from '../../core/config/config-rules.ts';
import { planReload, reloadLine } from '../../core/config/live-keys.ts';
import type { LiveConfig } from '../../supervise/run/live-config.ts';
import { loadContext, type CommonArgs } from '../shared/command-context.ts';

/**
 * SIGHUP to `deadman run`: re-read the config file with the same flags, check it exactly as a
 * start would (schema, then the rules between keys), and apply what can change live
 * (core/config/live-keys.ts) to the running supervision, in one line. The work never sees the
 * signal and is never touched. A config that no longer validates is refused in one line and
 * the running one kept; without a config file there is nothing to re-read, said in one line.
 */

export interface ReloadSource {
  /** The config file the run started with (found or given); null: none. */
  file: string | null;
  args: CommonArgs;
  /** The run's flags, keyed like the file: they still win over it. */
  flags: Record<string, unknown>;
  watchdogMs: number | null;
}

/** The SIGHUP handler; reloads one at a time, in the order the signals came. */
export function configReloader(source: ReloadSource, live: LiveConfig, logger: Logger): () => void {
  let reloading = Promise.resolve();
  return () => {
    reloading = reloading
      .then(() => reload(source, live, logger))
      .catch((error: unknown) => {
        logger.log('warn', `SIGHUP: the config was not reloaded (${(error as Error).message}); the running one stays`);
      });
  };
}

async function reload(source: ReloadSource, live: LiveConfig, logger: Logger): Promise<void> {
  if (source.file === null) {
    logger.log(
      'notice',
      'SIGHUP: deadman run was started without a config file, so there is nothing to re-read; ignored',
    );
    return;
  }
  let next;
  try {
    next = await loadContext({ ...source.args, config: source.file }, source.flags);
    refuseCrossFieldProblems(next.config, { watchdogMs: source.watchdogMs, chosen: next.chosen });
  } catch (error) {
    if (!(error instanceof DeadmanError)) throw error;
    const [first, ...more] = error.message.split('\n');
    logger.log(
      'warn',
      `SIGHUP: config not reloaded, the running one stays: ${first}${more.length > 0 ? ` (and ${more.length} more)` : ''}`,
    );
    return;
  }
  const plan = planReload(live.current, next.config);
  live.replace(plan.config);
  logger.log('notice', reloadLine(source.file, plan));
}
