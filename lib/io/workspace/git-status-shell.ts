import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * `git status --porcelain=v1 -z --untracked-files=all` in a work tree, run by a small shell that
 * is started at the first question and then kept: each question is a line to it, each answer a
 * line back. Forking deadman itself for every git run held its event loop for the fork — ~3–6 ms
 * a run, the kernel copying a 100 MB process's page tables, with spawn() as with spawnSync — 20
 * times a second under a flood of tool ends; a fork of the shell costs deadman nothing.
 *
 * The answer line is the hex of git's output followed by two NULs and git's exit status: git's
 * -z output never holds two NULs in a row (no entry is empty), so the last NUL ends the marker.
 * The shell reads its questions from a pipe only deadman holds (git never sees it), and ends at
 * its end of file: when deadman exits, however it exits.
 */

const SHELL = `while read -r _; do { git --no-optional-locks status --porcelain=v1 -z --untracked-files=all </dev/null 2>/dev/null; printf '\\0\\0%d' "$?"; } | od -An -v -tx1 | tr -d ' \\n'; echo; done`;

type Shell = ChildProcessByStdio<Writable, Readable, null>;

/**
 * git's output; null when git answered that it cannot tell (outside a work tree, or no git),
 * the same every time; UNANSWERED when no answer came in time or it was too long — a moment
 * unmeasured, which must never read as "the same as last time".
 */
export const UNANSWERED = 'unanswered';
export type GitStatus = Buffer | null | typeof UNANSWERED;

export class GitStatusShell {
  private shell: Shell | null = null;
  private answer = '';
  private waiting: ((status: GitStatus) => void) | null = null;
  /** The last question asked: the next is put once it is answered. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cwd: string,
    private readonly timeoutMs: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * git's output; null when git failed; UNANSWERED past `timeoutMs` or over `maxBytes`.
   * One git at a time: a question asked while one runs is put when that one ends.
   */
  status(): Promise<GitStatus> {
    const answer = this.last.then(() => this.ask());
    this.last = answer;
    return answer;
  }

  private ask(): Promise<GitStatus> {
    return new Promise((resolve) => {
      const shell = this.shell ?? this.start();
      const timer = setTimeout(() => this.stop(), this.timeoutMs);
      this.waiting = (status) => {
        clearTimeout(timer);
        this.waiting = null;
        this.keepAlive(false);
        resolve(status);
      };
      this.keepAlive(true);
      shell.stdin.write('\n');
    });
  }

  private start(): Shell {
    // Its own process group, so a stop also stops the git it runs.
    const shell = spawn('/bin/sh', ['-c', SHELL], { cwd: this.cwd, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    shell.stdout.setEncoding('latin1');
    shell.stdout.on('data', (part: string) => this.read(part));
    shell.once('error', () => this.stop(shell));
    shell.once('exit', () => this.stop(shell));
    shell.stdin.on('error', () => this.stop(shell));
    this.shell = shell;
    return shell;
  }

  private read(part: string): void {
    // Only the new part is searched: a 4 MB answer comes in many parts.
    const end = part.indexOf('\n');
    if (end === -1) {
      this.answer += part;
      if (this.answer.length > 2 * this.maxBytes + 64) this.stop();
      return;
    }
    const bytes = Buffer.from(this.answer + part.slice(0, end), 'hex');
    this.answer = '';
    const last = bytes.lastIndexOf(0);
    const measured = last >= 1 && last - 1 <= this.maxBytes;
    const gitSucceeded = bytes.subarray(last + 1).toString('latin1') === '0';
    this.waiting?.(!measured ? UNANSWERED : gitSucceeded ? bytes.subarray(0, last - 1) : null);
  }

  /** Ends the shell (and the git it runs); the question waiting is UNANSWERED, the next starts a new shell. */
  private stop(shell = this.shell): void {
    if (shell === null || shell !== this.shell) return;
    this.shell = null;
    this.answer = '';
    try {
      if (shell.pid !== undefined) process.kill(-shell.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    this.waiting?.(UNANSWERED);
  }

  /** Only a question waiting keeps deadman's event loop alive, never the idle shell. */
  private keepAlive(alive: boolean): void {
    const handles =
      this.shell === null
        ? []
        : ([this.shell, this.shell.stdin, this.shell.stdout] as Array<{ ref(): unknown; unref(): unknown }>);
    for (const handle of handles) {
      if (alive) handle.ref();
      else handle.unref();
    }
  }
}
