import type { ConsultableKind } from '../signals/registry.ts';
/**
 * Every default in one place, in resolved form (milliseconds, not "30min"). The zod schema
 * takes its defaults from here, and `deadman run` uses this object directly when there is no
 * config file and no flag to validate, so the lean start-up path never loads zod.
 */
export const DEFAULT_CONFIG = {
  auto_recover: false,
  inactivity: 30 * 60_000,
  timeout: 0,
  stop_grace: 10_000,
  ready_timeout: 90_000,
  stdin: 'null' as 'null' | 'inherit',
  adapter: 'auto' as 'auto' | 'codex' | 'claude' | 'generic',
  hung_timeout: 60_000,
  kill_grace: 5_000,
  poll: 1_000,
  verify_window: 60_000,
  exit_grace: 30_000,
  /** After a USAGE_LIMIT: wait in-process at most this long for the reset, plus up to `jitter`. */
  usage_limit: { max_wait: 6 * 3_600_000, jitter: 30_000, backoff: 15_000, continue_grace: 120_000 },
  /** SESSION_BUDGET_RISK from the agent's own telemetry; 0 is off. */
  budget: { tokens: 0, cost_usd: 0 },
  ignore: [] as string[],
  /** When the tree counts as working: CPU (ms) or I/O bytes above a floor per window (docs/design.md). */
  activity: { window: 10_000, cpu: 500, io_bytes: 512 * 1024 },
  max_line_bytes: 1024 * 1024,
  generic: {},
  revive: {
    max_age: 60 * 60_000,
    max_revives: 5,
    delay: 10_000,
    start_timeout: 30_000,
    session_files: [] as Array<'codex' | 'claude'>,
  },
  diagnose: {
    timeout: 30_000,
    api: 'chat',
    /**
     * Which signals' evidence packets go to the diagnostician (lib/core/incident/diagnosis.ts; any
     * kind whose row has `consult`). Named here, not read from the rows: this module is every
     * command's, and the registry would bring every detector into a probe's start (issue 36.1).
     */
    signals: ['HUNG_PROCESS'],
  } as {
    diagnostician?: 'rules' | 'command' | 'openai' | 'anthropic';
    command?: string[];
    timeout: number;
    api: 'chat' | 'responses';
    base_url?: string;
    model?: string;
    api_key_env?: string;
    signals: ConsultableKind[];
  },
  notify: {
    webhook: [] as string[],
    timeout: 5_000,
    min_interval: 5 * 60_000,
    events: ['fail', 'incident'],
    reminder: 60 * 60_000,
  } as {
    webhook: string[];
    healthchecks?: string;
    ntfy?: string;
    command?: string[];
    timeout: number;
    min_interval: number;
    events: Array<'start' | 'success' | 'fail' | 'incident'>;
    reminder: number;
  },
  metrics: {} as { textfile?: string },
  /** What `deadman unit` and `deadman install` write; `deadman run` ignores it. */
  unit: { sandbox: 'default' as 'strict' | 'default' | 'off' },
  retention: {
    max_age: 30 * 86_400_000,
    max_runs: 1000,
    events_per_run: 5000,
    observations_per_run: 500,
  },
  redact: {
    patterns: [] as string[],
  },
  evidence: [] as never[],
  jobs: {} as Record<string, never>,
};
