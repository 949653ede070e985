/**
 * sd_notify(3) as the loop and the commands use it; io/sd-notify.ts is the real one. Types
 * only: defined below io and the loop so both may import them (supervise/ports.ts re-exports
 * it as the loop's port).
 */

export type NotifyPath = 'addon' | 'systemd-notify' | 'none';

export interface SdNotifier {
  readonly path: NotifyPath;
  /** Why this path: shown by `config check` and on the start-up line. */
  readonly detail: string;
  /** Sends one or more KEY=VALUE lines. Never throws. */
  send(message: string): void;
}
