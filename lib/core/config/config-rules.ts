import type { Config } from './config.ts';
import { formatDuration } from '../time/duration.ts';
import { limitProblems } from './config-problems.ts';
import { configError } from '../../exit-codes.ts';

/**
 * Rules between keys that each pass on their own but do not work together: the one list that
 * `config check` reports and `run` (at start and on SIGHUP), `unit` and `install` refuse (exit
 * 78, the same lines), so no command accepts what another calls broken. They stay out of the
 * schema because they need facts the file does not hold (the watchdog) and because the other
 * commands (status, report, …) must still read such a file.
 */

export interface RuleFacts {
  /** WatchdogSec= the run has (WATCHDOG_USEC) or the unit will have; null without one. */
  watchdogMs: number | null;
  /** Top-level keys the file and the flags set (the loaded config's `chosen`). */
  chosen: ReadonlySet<string>;
}

export function crossFieldProblems(config: Config, facts: RuleFacts): string[] {
  const problems: string[] = [];
  if (config.inactivity <= 0) return problems;
  const inactivity = formatDuration(config.inactivity);
  const { watchdogMs } = facts;
  if (watchdogMs !== null && watchdogMs > config.inactivity) {
    problems.push(
      `the systemd watchdog (WatchdogSec=${formatDuration(watchdogMs)}) is longer than inactivity (${inactivity}): ` +
        'a wedged deadman would outlast a stall it should have caught; set WatchdogSec= (deadman unit --watchdog) to at most inactivity (deadman unit uses a quarter of it)',
    );
  }
  // Only a hung_timeout someone chose: the default (1min) against a deliberately short inactivity
  // (a demo, `--inactivity 2s`) just means the stall is caught first, which is what was asked for.
  if (facts.chosen.has('hung_timeout') && config.hung_timeout > 0 && config.hung_timeout >= config.inactivity) {
    problems.push(
      `hung_timeout (${formatDuration(config.hung_timeout)}) is not shorter than inactivity (${inactivity}): ` +
        'the run would stall before a hung tool could be stopped; set hung_timeout below inactivity',
    );
  }
  return problems;
}

/** Throws the config error (exit 78) of `crossFieldProblems`, one line each, when there are any. */
export function refuseCrossFieldProblems(config: Config, facts: RuleFacts): void {
  const problems = crossFieldProblems(config, facts);
  if (problems.length > 0) throw configError(limitProblems(problems).join('\n'));
}
