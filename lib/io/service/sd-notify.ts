import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { SdNotifier } from '../../core/ports/sd-notifier.ts';

/**
 * sd_notify(3) from deadman. Two paths: the sd-notify addon sends from deadman's own PID
 * (works with NotifyAccess=main); without it, the `systemd-notify` binary sends on deadman's
 * behalf (a different PID: the unit needs NotifyAccess=all). Without $NOTIFY_SOCKET every
 * send is a quiet no-op. `DEADMAN_NOTIFY=systemd-notify|none` forces a path (tests, or an
 * addon that misbehaves).
 */

export interface SystemdEnvironment {
  underSystemd: boolean;
  notifySocket: string | null;
  /** Watchdog timeout meant for this process, or null when no watchdog applies to us. */
  watchdogUsec: number | null;
  watchdogPid: number | null;
}

export function readSystemdEnvironment(env: NodeJS.ProcessEnv = process.env, pid = process.pid): SystemdEnvironment {
  const watchdogPid = env.WATCHDOG_PID ? Number(env.WATCHDOG_PID) : null;
  const usec = env.WATCHDOG_USEC ? Number(env.WATCHDOG_USEC) : NaN;
  const forUs = watchdogPid === null || watchdogPid === pid;
  return {
    underSystemd: Boolean(env.NOTIFY_SOCKET),
    notifySocket: env.NOTIFY_SOCKET ?? null,
    watchdogUsec: Boolean(env.NOTIFY_SOCKET) && forUs && Number.isFinite(usec) && usec > 0 ? usec : null,
    watchdogPid,
  };
}

interface SdNotifyAddon {
  sendState(state: string): void;
}

export type AddonProbe = { loaded: true; addon: SdNotifyAddon } | { loaded: false; why: string };

let probed: AddonProbe | undefined;

/** The notify path a unit for this environment will see (NotifyAccess= follows it): the addon, unless `DEADMAN_NOTIFY=systemd-notify` forces the fallback. */
export function unitNotifyPath(env: NodeJS.ProcessEnv): { addonLoaded: true } | { addonLoaded: false; why: string } {
  if (env.DEADMAN_NOTIFY === 'systemd-notify')
    return { addonLoaded: false, why: 'forced by DEADMAN_NOTIFY=systemd-notify' };
  const probe = probeAddon();
  return probe.loaded ? { addonLoaded: true } : { addonLoaded: false, why: probe.why };
}

/** Loads the optional addon once; a missing or mis-built addon is an answer, not an error. */
export function probeAddon(): AddonProbe {
  if (probed) return probed;
  try {
    const addon = createRequire(import.meta.url)('sd-notify') as SdNotifyAddon;
    probed =
      typeof addon.sendState === 'function'
        ? { loaded: true, addon }
        : { loaded: false, why: 'sd-notify has no sendState' };
  } catch (error) {
    const first = (error as Error).message.split('\n')[0] ?? 'unknown error';
    probed = {
      loaded: false,
      why: /Cannot find (module|package)/.test(first)
        ? 'sd-notify is not installed'
        : `sd-notify did not load: ${first}`,
    };
  }
  return probed;
}

export function createSdNotifier(
  env: NodeJS.ProcessEnv = process.env,
  onFailure: (message: string) => void = () => {},
): SdNotifier {
  const forced = env.DEADMAN_NOTIFY;
  if (!env.NOTIFY_SOCKET || forced === 'none') {
    return {
      path: 'none',
      detail: forced === 'none' ? 'disabled by DEADMAN_NOTIFY=none' : 'not under systemd (NOTIFY_SOCKET unset)',
      send() {},
    };
  }
  const addon = forced === 'systemd-notify' ? null : probeAddon();
  if (addon?.loaded) {
    return {
      path: 'addon',
      detail: "sd-notify addon loaded: messages come from deadman's own PID (NotifyAccess=main is enough)",
      send(message) {
        try {
          addon.addon.sendState(message);
        } catch (error) {
          onFailure(`sd_notify failed: ${(error as Error).message}`);
        }
      },
    };
  }
  const why = addon ? addon.why : 'forced by DEADMAN_NOTIFY=systemd-notify';
  return {
    path: 'systemd-notify',
    detail: `systemd-notify fallback (${why}): the unit needs NotifyAccess=all`,
    send(message) {
      const child = spawn('systemd-notify', message.split('\n').filter(Boolean), { stdio: 'ignore' });
      child.on('error', (error) => onFailure(`systemd-notify could not run: ${error.message}`));
      child.on('exit', (code) => {
        if (code !== 0) onFailure(`systemd-notify exited ${code}; is NotifyAccess=all set on the unit?`);
      });
      child.unref();
    },
  };
}
