import type { Config } from '../../core/config/config.ts';
import { activityFloors } from '../../core/detect/tree-activity.ts';
import type { SupervisorSettings } from '../tick/supervisor.ts';

/**
 * The config of a running `deadman run`, as SIGHUP may change it without touching the work
 * (commands/run/reload-config.ts swaps it). Whoever should follow a reload reads through here
 * rather than keeping a copy: the supervisor its thresholds every poll (`supervisorSettings`),
 * the evidence gate its claims, the alerts their sinks (`current.notify`). What cannot change
 * live (the command, the database, poll, …) is read from the plan's start config instead.
 */
export class LiveConfig {
  private built: { config: Config; settings: SupervisorSettings } | null = null;

  constructor(private config: Config) {}

  get current(): Config {
    return this.config;
  }

  replace(next: Config): void {
    this.config = next;
  }

  /** The supervisor's thresholds from the current config, built once per config. */
  supervisorSettings(agentName: () => string | null): SupervisorSettings {
    if (this.built?.config !== this.config)
      this.built = { config: this.config, settings: supervisorSettingsOf(this.config, agentName) };
    return this.built.settings;
  }
}

function supervisorSettingsOf(config: Config, agentName: () => string | null): SupervisorSettings {
  return {
    autoRecover: config.auto_recover,
    inactivityMs: config.inactivity,
    timeoutMs: config.timeout,
    hungTimeoutMs: config.hung_timeout,
    readyTimeoutMs: config.ready_timeout,
    exitGraceMs: config.exit_grace,
    budget: { tokens: config.budget.tokens, costUsd: config.budget.cost_usd },
    ignore: config.ignore.map((pattern) => new RegExp(pattern)),
    verifyWindowMs: config.verify_window,
    agent: () => agentName() !== null,
    agentName,
    activity: activityFloors(config.activity),
  };
}
