import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ExitCode } from '../../exit-codes.ts';
import { childEnvironment } from './child-environment.ts';

/**
 * Starts the supervised command: argv verbatim (never a shell), its own session and process
 * group (so a signal to the group reaches the command and not deadman), stdout/stderr piped to
 * deadman, stdin /dev/null unless asked (`codex exec` waits forever on an open stdin pipe).
 */

export type SpawnOutcome =
  { ok: true; child: ChildProcess & { pid: number } } | { ok: false; exitCode: number; message: string };

export function spawnChild(
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin: 'null' | 'inherit'; runTag: string },
): Promise<SpawnOutcome> {
  const [file, ...args] = argv;
  if (!file)
    return Promise.resolve({ ok: false, exitCode: ExitCode.USAGE, message: 'no command given; put it after --' });
  if (!existsSync(options.cwd)) {
    return Promise.resolve({
      ok: false,
      exitCode: ExitCode.CANNOT_EXECUTE,
      message: `working directory ${options.cwd} does not exist`,
    });
  }
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: childEnvironment(options.env, options.runTag),
      stdio: [options.stdin === 'inherit' ? 'inherit' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return;
      const notFound = error.code === 'ENOENT';
      resolve({
        ok: false,
        exitCode: notFound ? ExitCode.NOT_FOUND : ExitCode.CANNOT_EXECUTE,
        message: notFound ? `${file}: command not found` : `${file}: cannot execute (${error.code ?? error.message})`,
      });
    });
    child.once('spawn', () => resolve({ ok: true, child: child as ChildProcess & { pid: number } }));
  });
}
