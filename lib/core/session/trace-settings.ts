import type { TraceEntry, TraceSettings } from './trace.ts';

/**
 * The writing half of a trace, kept apart from its schema (trace.ts) so that `deadman run
 * --record` does not load zod on the run path (test/bin/bundle.test.ts).
 */

/** One trace line (no newline). */
export function traceLine(entry: TraceEntry): string {
  return JSON.stringify(entry);
}

/** The settings of a run as a trace header keeps them (only what the loop decides with). */
export function traceSettings(config: TraceSettingsSource, onStall: 'withhold' | 'exit'): TraceSettings {
  const {
    poll,
    inactivity,
    timeout,
    hung_timeout,
    ready_timeout,
    ready_pattern,
    ready_port,
    verify_window,
    kill_grace,
    stop_grace,
    auto_recover,
    ignore,
    activity,
    budget,
    exit_grace,
    max_line_bytes,
    generic,
    revive,
  } = config;
  return {
    poll,
    inactivity,
    timeout,
    hung_timeout,
    ready_timeout,
    verify_window,
    kill_grace,
    stop_grace,
    auto_recover,
    on_stall: onStall,
    ignore,
    activity,
    budget,
    exit_grace,
    max_line_bytes,
    generic,
    revive: { max_revives: revive.max_revives },
    ...(ready_pattern === undefined ? {} : { ready_pattern }),
    ...(ready_port === undefined ? {} : { ready_port }),
  };
}

type TraceSettingsSource = Required<Omit<TraceSettings, 'ready_pattern' | 'ready_port' | 'on_stall' | 'revive'>> & {
  ready_pattern?: string | undefined;
  ready_port?: number | undefined;
  revive: { max_revives: number };
};
