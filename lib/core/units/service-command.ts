import { usageError } from '../../exit-codes.ts';

/**
 * What a systemd unit and a launchd plist both start: Node running deadman's entry script,
 * `deadman run` with its options, `--`, then the supervised command. Pure.
 */
export interface ServiceCommand {
  /** Names the unit or plist, and is the run's `--name`. */
  name: string;
  /** The Node binary that runs deadman (`process.execPath`). */
  nodePath: string;
  /** deadman's entry script (`…/bin/deadman.js`). */
  deadmanEntry: string;
  /** Options for `deadman run`, already as arguments (`--inactivity`, `10min`, …). */
  runArgs: readonly string[];
  command: readonly string[];
  workingDirectory: string;
  environment: ReadonlyArray<readonly [string, string]>;
}

/** Names become file names and `--name`; `@` would turn a systemd unit into a template instance. */
const SERVICE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export function checkServiceName(name: string): void {
  if (!SERVICE_NAME.test(name))
    throw usageError(`--name "${name}" may use only letters, digits and _ . - (at most 100)`);
}

export function deadmanArgv(
  spec: Pick<ServiceCommand, 'nodePath' | 'deadmanEntry' | 'runArgs' | 'command' | 'name'>,
): string[] {
  return [spec.nodePath, spec.deadmanEntry, 'run', '--name', spec.name, ...spec.runArgs, '--', ...spec.command];
}
