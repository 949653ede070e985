import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `deadman run` as a unit runs it, but private: no NOTIFY_SOCKET, a state directory and a
 * database of its own in a fresh temporary directory (the caller removes `dir`).
 */
export interface DeadmanBench {
  dir: string;
  opts: { cwd: string; env: NodeJS.ProcessEnv };
  /** `bin/deadman.js run --database … <args>`, the argv after the Node executable. */
  run: (...args: string[]) => string[];
  /** A small config file (not named deadman.toml: that name in the cwd would be found by every run). */
  config: string;
}

export const deadmanBin = new URL('../../../bin/deadman.js', import.meta.url).pathname;

export function deadmanBench(name: string, entry = deadmanBin): DeadmanBench {
  const dir = mkdtempSync(join(tmpdir(), `deadman-bench-${name}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state') };
  for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID', 'INVOCATION_ID', 'DEADMAN_CONFIG'])
    delete env[key];
  mkdirSync(env.STATE_DIRECTORY!);
  const config = join(dir, 'bench.toml');
  writeFileSync(config, 'inactivity = "10min"\nstop_grace = "5s"\nhung_timeout = "2min"\n');
  return {
    dir,
    opts: { cwd: dir, env },
    config,
    run: (...args) => [entry, 'run', '--database', join(dir, 'deadman.db'), ...args],
  };
}
