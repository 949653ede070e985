import { spawn } from 'node:child_process';
import { childEnvironment } from '../process/child-environment.ts';

/**
 * Starting a supervised resume where it outlives the hook that asks for it. Under systemd a
 * hook's processes stay in the hook unit's cgroup even after setsid, and die with it: there the
 * resume gets a transient unit of its own (`systemd-run`); elsewhere a detached process does.
 */

export type ServiceManager = 'user' | 'system';

/**
 * Which manager deadman itself runs under: none without `$INVOCATION_ID` (set for every unit's
 * processes), the user manager when `$MANAGERPID` is set too (systemd sets it only for a user
 * instance's processes), else the system manager. A shell under a login session is "none".
 */
export function serviceManagerOf(env: NodeJS.ProcessEnv): ServiceManager | null {
  if (!env.INVOCATION_ID) return null;
  return env.MANAGERPID ? 'user' : 'system';
}

/** What systemd sets for the hook's own unit; the transient unit gets its own values. */
const UNIT_OWN_VARIABLES = new Set([
  'INVOCATION_ID',
  'JOURNAL_STREAM',
  'SYSTEMD_EXEC_PID',
  'MANAGERPID',
  'MAINPID',
  'SERVICE_RESULT',
  'EXIT_CODE',
  'EXIT_STATUS',
]);
const UNIT_OWN_PREFIXES = ['MONITOR_', 'TRIGGER_'];
const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The hook's environment for the resume (what a restart of its unit would see), with the hand-off tag; and the names to carry over. */
export function resumeEnvironment(env: NodeJS.ProcessEnv, runTag: string): { env: NodeJS.ProcessEnv; names: string[] } {
  const carried = childEnvironment(env, runTag);
  const names = Object.keys(carried).filter(
    (name) =>
      ENVIRONMENT_NAME.test(name) &&
      !UNIT_OWN_VARIABLES.has(name) &&
      !UNIT_OWN_PREFIXES.some((prefix) => name.startsWith(prefix)),
  );
  return { env: Object.fromEntries(names.map((name) => [name, carried[name]])), names };
}

/** Runs `systemd-run …` (it returns once the start job is queued); its one-line complaint on failure. */
export async function startTransientUnit(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, error: error.code === 'ENOENT' ? `${argv[0]} not found` : error.message }),
    );
    child.once('close', (code, signal) =>
      resolve(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              error: `${argv[0]} failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`,
            },
      ),
    );
  });
}
