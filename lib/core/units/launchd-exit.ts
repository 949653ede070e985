import { NO_RESTART_CODES } from '../../exit-codes.ts';

/**
 * launchd has no RestartPreventExitStatus=: its `KeepAlive` dictionary restarts a job on any
 * exit but 0 (`SuccessfulExit=false`) and knows no exit codes. So a `deadman run` that a
 * generated plist starts (it sets LAUNCHD_LABEL_ENV) ends a "do not restart" outcome — 64, 65,
 * 69, 78, the codes systemd units list in RestartPreventExitStatus= — with 0, after saying which
 * code it stands for. Every other code, 75 (stalled: restart me) first, is left as it is, so
 * launchd restarts the job after `ThrottleInterval`. Pure.
 */

/** Set by the generated plist to the job's label; removed from the environment of what deadman starts. */
export const LAUNCHD_LABEL_ENV = 'DEADMAN_LAUNCHD_LABEL';

export function launchdExitCode(code: number, label: string | undefined): { exitCode: number; note: string | null } {
  if (!label || !(NO_RESTART_CODES as readonly number[]).includes(code)) return { exitCode: code, note: null };
  return {
    exitCode: 0,
    note: `exit ${code} means do not restart: launchd job ${label} ends with 0, since its KeepAlive (SuccessfulExit=false) restarts on any other code`,
  };
}
