import { quoteCommandLine, quoteEnvironmentAssignment } from '../../lib/core/units/systemd-quote.ts';
import { deadmanBin } from './cli.ts';

export interface TestUnit {
  /** Arguments of `deadman run` before `--`. */
  runArgs: string[];
  command: string[];
  env?: Record<string, string>;
  notifyAccess?: 'main' | 'all';
  watchdogSec?: string;
  extra?: string[];
}

/** A Type=notify unit that runs `deadman run … -- command` on this Node (the pinned one). */
export function deadmanUnit(spec: TestUnit): string {
  const exec = quoteCommandLine([process.execPath, deadmanBin, 'run', ...spec.runArgs, '--', ...spec.command]);
  if (!exec.ok) throw new Error(exec.error);
  const env = Object.entries(spec.env ?? {}).map(([k, v]) => {
    const quoted = quoteEnvironmentAssignment(k, v);
    if (!quoted.ok) throw new Error(quoted.error);
    return `Environment=${quoted.text}`;
  });
  return [
    '[Unit]',
    'StartLimitIntervalSec=0',
    '[Service]',
    'Type=notify',
    `NotifyAccess=${spec.notifyAccess ?? 'main'}`,
    `WatchdogSec=${spec.watchdogSec ?? '2s'}`,
    'Restart=on-failure',
    'RestartSec=500ms',
    'TimeoutStopSec=15s',
    ...env,
    ...(spec.extra ?? []),
    `ExecStart=${exec.text}`,
    '',
  ].join('\n');
}
