import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import { childEnvironment } from './child-environment.ts';

/**
 * Starts a command that must outlive the process starting it: its own session (a hook's
 * unit stopping does not signal it through the terminal or group), stdin /dev/null (Codex
 * waits forever on an open stdin), stdout and stderr appended to a log file, no shell.
 */

export type Launch = { ok: true; pid: number } | { ok: false; error: string };

export async function launchDetached(
  argv: readonly string[],
  options: { cwd: string; logPath: string; runTag: string },
): Promise<Launch> {
  if (!statSync(options.cwd, { throwIfNoEntry: false })?.isDirectory())
    return { ok: false, error: `working directory ${options.cwd} does not exist` };
  let log: number;
  try {
    log = openSync(options.logPath, 'a', 0o600);
  } catch (error) {
    return { ok: false, error: `cannot open ${options.logPath}: ${(error as Error).message}` };
  }
  try {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', log, log],
      env: childEnvironment(process.env, options.runTag),
    });
    const started = await new Promise<true | string>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', (error: NodeJS.ErrnoException) =>
        resolve(error.code === 'ENOENT' ? `${argv[0]} not found` : error.message),
      );
    });
    if (started !== true) return { ok: false, error: started };
    child.unref();
    return { ok: true, pid: child.pid! };
  } finally {
    closeSync(log);
  }
}
