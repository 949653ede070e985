import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CommandOutcome } from '../../core/evidence/probe-verdicts.ts';

/**
 * Runs an argv (never a shell) to completion with a timeout and bounded output capture: for
 * command claims and for `deadman check --fix` reruns. The command gets its own process group,
 * so a timeout stops everything it started (TERM, then KILL after a grace), not just its leader.
 */

export interface BoundedRunOptions {
  argv: readonly string[];
  cwd?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** 0 disables the timeout ("off" in the config). */
  timeoutMs: number;
  /** Bytes kept per stream; longer output keeps its first and last halves. */
  maxOutputBytes?: number;
  killGraceMs?: number;
  /** Written to the command's stdin (then closed); without it stdin is /dev/null. */
  input?: string;
}

/** After the leader exits, how long background processes may hold its pipes open before we stop reading. */
const PIPE_DRAIN_MS = 500;

export function runBounded(options: BoundedRunOptions): Promise<CommandOutcome> {
  const [file, ...args] = options.argv;
  if (file === undefined) return Promise.resolve({ kind: 'not-started', error: 'empty command' });
  if (options.cwd !== undefined && !existsSync(options.cwd)) {
    return Promise.resolve({ kind: 'not-started', error: `working directory ${options.cwd} does not exist` });
  }
  const stdout = new BoundedCapture(options.maxOutputBytes ?? 64 * 1024);
  const stderr = new BoundedCapture(options.maxOutputBytes ?? 64 * 1024);
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // A command that does not read all of its input closes the pipe early: not an error.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
    const started = performance.now();
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const timers: NodeJS.Timeout[] = [];
    const finish = (outcome: CommandOutcome) => {
      for (const timer of timers) clearTimeout(timer);
      child.stdout!.destroy();
      child.stderr!.destroy();
      resolve(outcome);
    };
    const settle = () => {
      if (exit === null) return;
      const output = { stdout: stdout.text(), stderr: stderr.text() };
      if (timedOut) finish({ kind: 'timed-out', afterMs: Math.round(performance.now() - started), ...output });
      else if (exit.signal !== null) finish({ kind: 'signaled', signal: exit.signal, ...output });
      else finish({ kind: 'exited', code: exit.code ?? 0, ...output });
    };
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish({ kind: 'not-started', error: describeSpawnError(error) });
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      if (timedOut) signalGroup(child.pid, 'SIGKILL');
      timers.push(setTimeout(settle, timedOut ? 0 : PIPE_DRAIN_MS));
    });
    child.once('close', settle);
    if (options.timeoutMs > 0) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          signalGroup(child.pid, 'SIGTERM');
          timers.push(setTimeout(() => signalGroup(child.pid, 'SIGKILL'), options.killGraceMs ?? 2_000));
        }, options.timeoutMs),
      );
    }
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined || pid <= 1) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we wanted.
  }
}

function describeSpawnError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'command not found';
  if (error.code === 'EACCES') return 'permission denied';
  return error.code ?? error.message;
}

/** Keeps the first and last halves of a stream once it outgrows the limit. */
class BoundedCapture {
  private readonly half: number;
  private head = Buffer.alloc(0);
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(limit: number) {
    this.half = Math.max(1, Math.floor(limit / 2));
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.half - this.head.length;
    if (room > 0) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, room)]);
      chunk = chunk.subarray(room);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= this.half) this.tailBytes -= this.tail.shift()!.length;
  }

  text(): string {
    const tail = Buffer.concat(this.tail);
    const kept = tail.subarray(Math.max(0, tail.length - this.half));
    const omitted = this.total - this.head.length - kept.length;
    const marker = omitted > 0 ? `\n[… ${omitted} bytes omitted …]\n` : '';
    return `${this.head.toString('utf8')}${marker}${kept.toString('utf8')}`;
  }
}
