import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ptyArgv } from '../../core/session/pty-argv.ts';

/**
 * This host's `script` (util-linux on Linux, BSD on macOS) and the command line that runs
 * `argv` in a new pseudo-terminal through it (the argv itself is core/session/pty-argv.ts).
 */

const SCRIPT_PATHS = ['/usr/bin/script', '/bin/script'];

/** The argv to spawn, with the environment `script` needs; null when this host has no `script`. */
export function ptyCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { argv: string[]; env: NodeJS.ProcessEnv } | null {
  const script = SCRIPT_PATHS.find((path) => existsSync(path));
  const command = script === undefined ? null : ptyArgv(argv, { script, platform, shell: env.SHELL });
  return command && { argv: command.argv, env: { ...env, ...command.env } };
}

/**
 * Whether `file` would start: `script` only reports a missing program from inside the new
 * terminal, after the agent's pid was taken, so it is looked up on PATH first.
 */
export function programFound(file: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = file.includes('/')
    ? [file]
    : (env.PATH ?? '')
        .split(':')
        .filter(Boolean)
        .map((dir) => join(dir, file));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
