import { DeadmanError, ExitCode } from '../../exit-codes.ts';
import type { TreeObserver } from '../../core/process/owned-tree.ts';
import { createDarwinObserver } from './proc-darwin.ts';
import { createLinuxObserver } from './proc-linux.ts';

export type { ProcessIdentity, TreeObserver } from '../../core/process/owned-tree.ts';

export interface ObserverOptions {
  rootPid: number;
  selfPid?: number;
  /** Linux: also own the members of deadman's systemd service cgroup. Ignored on macOS. */
  useCgroup: boolean;
  monotonic: () => number;
  /** The run tag in the child's environment, proof of ownership without a cgroup. */
  runTag?: string;
}

/** The owned-tree observer for this OS: /proc on Linux, `ps` on macOS. */
export function createObserver(options: ObserverOptions, platform: NodeJS.Platform = process.platform): TreeObserver {
  if (platform === 'linux') return createLinuxObserver(options);
  if (platform === 'darwin') return createDarwinObserver(options);
  throw new DeadmanError(`cannot observe processes on ${platform}: deadman supports Linux and macOS`, ExitCode.DO_NOT_RESTART);
}
