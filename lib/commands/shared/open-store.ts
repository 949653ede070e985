import type { Config } from '../../core/config/config.ts';
import { createRedactor, type Redactor } from '../../core/redact/redact.ts';
import { Store } from '../../io/store/store.ts';
import type { Context } from './command-context.ts';

// Apart from command-context.ts: a probe (`deadman health`) loads its context without the
// store and the redactor, which it needs only for a run whose deadman is gone (issue 36.1).

/**
 * The redactor for everything a command stores or prints: the configured extra patterns, and
 * the environment deadman passes to the work (its secret-looking values are hidden wherever
 * they turn up).
 */
export function redactorFor(config: Config, env: NodeJS.ProcessEnv = process.env): Redactor {
  return createRedactor({ env, patterns: config.redact.patterns });
}

/**
 * Opens the database with the configured bounds, redacting every row written, and applies
 * retention: every command that records (run, check, revive) keeps the file from growing
 * without bound, whichever of them a host happens to use. `deadman run` opens with `retain:
 * false` and prunes once its command runs, a bounded batch a poll (run/run-retention.ts).
 */
export function openStore(context: Context, options: { retain?: boolean; busyTimeoutMs?: number } = {}): Store {
  const { retention } = context.config;
  const store = new Store(context.paths.database, {
    eventsPerRun: retention.events_per_run,
    observationsPerRun: retention.observations_per_run,
    redactor: redactorFor(context.config),
    busyTimeoutMs: options.busyTimeoutMs,
  });
  if (options.retain !== false) store.prune(context.clock.wall(), retention.max_age, retention.max_runs);
  return store;
}
