import type { Config } from './config.ts';
import { formatDuration } from '../time/duration.ts';

/**
 * What a SIGHUP to `deadman run` may change while the work runs: the thresholds the supervisor
 * reads every poll, the stop and kill graces, the evidence claims and the notify sinks. Everything else
 * (the command, cwd, database, poll, adapter, revive, redact, …) takes effect at the next start.
 */
export const LIVE_KEYS = [
  'inactivity',
  'timeout',
  'hung_timeout',
  'ready_timeout',
  'exit_grace',
  'verify_window',
  'stop_grace',
  'kill_grace',
  'auto_recover',
  'budget',
  'ignore',
  'activity',
  'evidence',
  'notify',
] as const satisfies ReadonlyArray<keyof Config>;

const DURATIONS: ReadonlySet<string> = new Set([
  'inactivity',
  'timeout',
  'hung_timeout',
  'ready_timeout',
  'exit_grace',
  'verify_window',
  'stop_grace',
  'kill_grace',
]);

export interface ReloadPlan {
  /** The running config with the changed live keys of the new one; an unchanged key keeps its very value. */
  config: Config;
  /** `inactivity 30min → 5s`, or the key alone for a table or list. */
  applied: string[];
  /** Keys that changed but wait for the next start. */
  atNextStart: string[];
}

export function planReload(running: Config, next: Config): ReloadPlan {
  const changed = (key: keyof Config) => JSON.stringify(running[key]) !== JSON.stringify(next[key]);
  const live: ReadonlySet<string> = new Set(LIVE_KEYS);
  const config = { ...running } as Record<string, unknown>;
  const applied: string[] = [];
  for (const key of LIVE_KEYS) {
    if (!changed(key)) continue;
    config[key] = next[key];
    applied.push(describeChange(key, running[key], next[key]));
  }
  const keys = new Set([...Object.keys(running), ...Object.keys(next)]) as Set<keyof Config>;
  const atNextStart = [...keys].filter((key) => !live.has(key) && changed(key));
  return { config: config as Config, applied, atNextStart };
}

function describeChange(key: string, before: unknown, after: unknown): string {
  const show = (value: unknown) =>
    DURATIONS.has(key) ? (value === 0 ? 'off' : formatDuration(value as number)) : String(value);
  return typeof after === 'object' && after !== null ? key : `${key} ${show(before)} → ${show(after)}`;
}

/** The one line a reload says: what it applied, and what waits for the next start. */
export function reloadLine(file: string, plan: ReloadPlan): string {
  if (plan.applied.length === 0 && plan.atNextStart.length === 0) return `SIGHUP: re-read ${file}: nothing changed`;
  const parts = [
    plan.applied.length > 0 ? `applied ${plan.applied.join(', ')}` : 'nothing to apply now',
    ...(plan.atNextStart.length > 0 ? [`${plan.atNextStart.join(', ')} at the next start`] : []),
  ];
  return `SIGHUP: re-read ${file}: ${parts.join('; ')}; the work goes on untouched`;
}
