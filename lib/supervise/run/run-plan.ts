import type { Config } from '../../core/config/config.ts';
import type { LiveConfig } from './live-config.ts';

/** What one pass starts and how: the command, its settings, and the run's own state across passes. The edges are its ports (ports.ts). */
export interface RunPlan {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: Config;
  onStall: 'withhold' | 'exit';
  /** The run tag put into the child's environment; the revive marker keeps the same one. */
  runTag: string;
  /** What SIGHUP may change while the work runs (thresholds, stop_grace); else `config` throughout. */
  live?: LiveConfig;
  /** WATCHDOG_USEC when systemd runs a watchdog on us (pings every half of it); else null or left out. */
  watchdogUsec?: number | null;
  /** Action fingerprints policy allowed in this run, kept across its passes: none is taken twice. */
  actionsTaken?: Set<string>;
}
