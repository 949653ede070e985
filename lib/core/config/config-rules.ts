import type { Config } from './config.ts';
import { formatDuration } from './duration.ts';

/**
 * Rules between keys that each pass on their own but do not work together. `config check`
 * lists them as problems, one line each; `deadman run` still starts (a short --inactivity for a
 * demo or a test is deliberate), so the rules stay out of the schema.
 */
export function crossFieldProblems(config: Config, watchdogMs: number | null): string[] {
  const problems: string[] = [];
  if (config.inactivity <= 0) return problems;
  const inactivity = formatDuration(config.inactivity);
  if (watchdogMs !== null && watchdogMs >= config.inactivity) {
    problems.push(`the systemd watchdog (WatchdogSec=${formatDuration(watchdogMs)}) is not shorter than inactivity (${inactivity}): `
      + 'a stall would reach systemd a whole watchdog period late; set WatchdogSec= below inactivity (deadman unit uses a quarter of it)');
  }
  if (config.hung_timeout > 0 && config.hung_timeout >= config.inactivity) {
    problems.push(`hung_timeout (${formatDuration(config.hung_timeout)}) is not shorter than inactivity (${inactivity}): `
      + 'the run would stall before a hung tool could be stopped; set hung_timeout below inactivity');
  }
  return problems;
}
