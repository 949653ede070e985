import { quoteCommandLine, quoteEnvironmentAssignment } from '../../lib/core/units/systemd-quote.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot } from './cli.ts';
import type { UserManager } from './systemd.ts';

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

/**
 * Writes shipped units (units/NAME) into a test user manager with the paths an installed
 * deadman has moved: /usr/bin/deadman becomes this checkout's entry run by this Node (a check
 * reading `config`), /etc/deadman the config dir `etc`, /var/lib/deadman the records' dir.
 * Nothing else of the units is changed.
 */
export async function installShippedUnits(
  manager: Pick<UserManager, 'writeUnit'>,
  files: readonly string[],
  dirs: { etc: string; records: string },
): Promise<void> {
  for (const file of files) {
    const text = readFileSync(join(repoRoot, 'units', file), 'utf8')
      .replaceAll('/usr/bin/deadman check', `/usr/bin/deadman check --config ${dirs.etc}/deadman.toml`)
      .replaceAll('/usr/bin/deadman', `${process.execPath} ${deadmanBin}`)
      .replaceAll('/etc/deadman/', `${dirs.etc}/`)
      .replaceAll('/var/lib/deadman', dirs.records);
    await manager.writeUnit(file, text);
  }
}
