import { formatSystemdSpan } from '../time/duration.ts';
import { notifyAccessFor, type UnitSpec } from './unit-file.ts';
import type { UnitTimings } from './unit-timings.ts';

/**
 * The transient unit `deadman revive` starts a supervised resume in (`systemd-run`): a unit of
 * its own, so the resume outlives the hook's unit (a oneshot, an `ExecStartPost=`), with the
 * same Type=notify, NotifyAccess= and WatchdogSec= a generated unit has (unit-file.ts,
 * unit-timings.ts). No Restart=: the next hook, or a person, decides about another start. Pure.
 */

export interface TransientRevive {
  /** `user`: `systemd-run --user` (deadman runs under a user manager); `system`: the system manager. */
  manager: 'user' | 'system';
  unitName: string;
  description: string;
  timings: UnitTimings;
  notify: UnitSpec['notify'];
  workingDirectory: string;
  /** Variables the unit takes from systemd-run's own environment (`--setenv=NAME`: the value never is an argument). */
  environmentNames: readonly string[];
  /** `deadman run --name … -- command`. */
  run: readonly string[];
}

const UNIT_NAME_UNSAFE = /[^A-Za-z0-9_.-]/g;
const SESSION_PREFIX = 8;

/** `deadman-revive-<name>-<session id prefix>.service`: one unit per session, so a second launch of the same session is refused by systemd itself. */
export function reviveUnitName(name: string, sessionId: string): string {
  return `deadman-revive-${name.replace(UNIT_NAME_UNSAFE, '_')}-${sessionId.replace(UNIT_NAME_UNSAFE, '_').slice(0, SESSION_PREFIX)}.service`;
}

/**
 * `--no-block`: a Type=notify start waits for READY=1, which the `deadman run` sends only after
 * taking the marker lock that the waiting `deadman revive` holds. `--collect`: a failed run's
 * unit is unloaded too, so the name is free for the next revive.
 */
export function systemdRunArgv(spec: TransientRevive): string[] {
  const properties = [
    'Type=notify',
    `NotifyAccess=${notifyAccessFor(spec.notify)}`,
    `WatchdogSec=${formatSystemdSpan(spec.timings.watchdogMs)}`,
    `TimeoutStartSec=${formatSystemdSpan(spec.timings.startTimeoutMs)}`,
    `TimeoutStopSec=${formatSystemdSpan(spec.timings.stopTimeoutMs)}`,
    'KillMode=control-group',
  ];
  return [
    'systemd-run',
    ...(spec.manager === 'user' ? ['--user'] : []),
    '--no-block',
    '--collect',
    '--quiet',
    `--unit=${spec.unitName}`,
    `--description=${spec.description}`,
    `--working-directory=${spec.workingDirectory}`,
    ...properties.flatMap((property) => ['-p', property]),
    ...spec.environmentNames.map((name) => `--setenv=${name}`),
    '--',
    ...spec.run,
  ];
}
