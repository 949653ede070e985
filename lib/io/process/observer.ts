import { DeadmanError, ExitCode } from '../../exit-codes.ts';
import type { TreeObserver } from '../../core/process/owned-tree.ts';
import { createDarwinObserver } from './proc-darwin.ts';
import { createLinuxObserver, type LinuxObserverOptions } from './proc-linux.ts';
import type { TreeObserverOptions } from '../../core/process/tree-observer.ts';

export type { ProcessIdentity, TreeObserver } from '../../core/process/owned-tree.ts';

/** `useCgroup` is Linux's (also own the members of deadman's systemd service cgroup); macOS ignores it. */
export type ObserverOptions = TreeObserverOptions & Pick<LinuxObserverOptions, 'useCgroup'>;

/** The owned-tree observer for this OS: /proc on Linux, `ps` on macOS. */
export function createObserver(options: ObserverOptions, platform: NodeJS.Platform = process.platform): TreeObserver {
  if (platform === 'linux') return createLinuxObserver(options);
  if (platform === 'darwin') return createDarwinObserver(options);
  throw new DeadmanError(
    `cannot observe processes on ${platform}: deadman supports Linux and macOS`,
    ExitCode.DO_NOT_RESTART,
  );
}
