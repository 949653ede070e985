import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '../../lib/io/time/poll-until.ts';
import { measureHostDelay } from './host-delay.ts';

/** Repository root, from dist/test/helpers/ (compiled) back up three levels. */
export const repoRoot = new URL('../../../', import.meta.url).pathname;
export const deadmanBin = join(repoRoot, 'bin', 'deadman.js');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (bin/deadman.js on this Node) to completion. */
export function runDeadman(args: string[], options: SpawnOptions & { input?: string } = {}): Promise<Finished> {
  return runProgram(process.execPath, [deadmanBin, ...args], options);
}

/** `onStdout` sees stdout as it arrives, for a handshake with a program that is still running. */
export function runProgram(
  file: string,
  args: string[],
  options: SpawnOptions & { input?: string; onStdout?: (text: string) => void } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.onStdout?.(stdout);
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A program that exits without reading its input (tmux kill-server) closes the pipe first;
    // the EPIPE of that write is no failure of the program, and unheard it would crash the test file.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** A fresh private directory, removed when the test (or process) ends. */
export function tempDir(t?: { after(fn: () => void): void }, prefix = 'deadman-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (t) t.after(remove);
  else process.on('exit', remove);
  return dir;
}

/**
 * Polls `check` until it returns a truthy value or the deadline passes (then throws). The
 * deadline is an idle host's: on a busy one it is kept on a clock slowed by how much slower
 * the host ran (host-delay.ts), so a host at load 10 gets the time it needs.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs: number,
  what = 'condition',
  everyMs = 50,
): Promise<NonNullable<T>> {
  const host = measureHostDelay();
  const started = performance.now();
  const value = await pollUntil(check, { timeoutMs, everyMs, monotonic: host.clock });
  if (value === null)
    throw new Error(
      `timed out after ${Math.round(performance.now() - started)} ms (${timeoutMs} ms at this host's pace, ${host.stretch().toFixed(1)}× an idle one's) waiting for ${what}`,
    );
  return value;
}
