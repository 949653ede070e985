import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The command line that runs `argv` in a new pseudo-terminal without a native addon: util-linux
 * `script` on Linux (`-e` passes the exit code through, 128+N for a signal), BSD `script` on
 * macOS. `script` puts the caller's terminal in raw mode, copies its window size to the new
 * terminal and passes size changes on (SIGWINCH); its typescript goes to /dev/null.
 */

const SCRIPT_PATHS = ['/usr/bin/script', '/bin/script'];

/** The argv to spawn, with the environment `script` itself needs; null when this host has no `script`. */
export function ptyCommand(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): { argv: string[]; env: NodeJS.ProcessEnv } | null {
  const script = SCRIPT_PATHS.find((path) => existsSync(path));
  if (!script) return null;
  if (platform === 'darwin') return { argv: [script, '-q', '/dev/null', ...argv], env };
  if (platform !== 'linux') return null;
  // util-linux runs the command through $SHELL -c: /bin/sh, so the quoting below holds, with the
  // person's own SHELL put back for the agent (its tools use it); `exec` makes the agent script's child.
  const restoreShell = env.SHELL ? `SHELL=${shellQuote(env.SHELL)} ` : 'unset SHELL; ';
  return { argv: [script, '-q', '-e', '-c', `${restoreShell}exec ${argv.map(shellQuote).join(' ')}`, '/dev/null'], env: { ...env, SHELL: '/bin/sh' } };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Whether `file` would start: `script` only reports a missing program from inside the new
 * terminal, after the agent's pid was taken, so it is looked up on PATH first.
 */
export function programFound(file: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = file.includes('/') ? [file] : (env.PATH ?? '').split(':').filter(Boolean).map((dir) => join(dir, file));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
