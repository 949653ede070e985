import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, waitFor } from './cli.ts';
import { readProcStat } from '../../lib/io/process/process-identity.ts';
import { isZombie } from '../../lib/core/process/owned-tree.ts';
import { wholeJsonLines } from './json-lines.ts';

export const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');
/** The fake agent as `deadman run` is given it in most tests: Codex's exec mode with one prompt, after the `--`. */
export const FAKE_CODEX_COMMAND = [
  '--',
  process.execPath,
  fakeAgent,
  'codex',
  'exec',
  '--json',
  'make the parser tests pass',
];

/**
 * $FAKE_AGENT_REPEATS for a test that needs NO_PROGRESS after REPEATED_FAILURE: on a busy host a
 * git status takes hundreds of ms, a rerun's end that comes while one runs is unmeasured (neither
 * counted nor a reset), and the default 12 reruns left too few measured ones (test:busy).
 */
export const REPEATS_UNDER_LOAD = '30';

export interface RunningAgent {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the fake agent with stdin closed, collecting its stdout lines as they come. When the
 * test ends, the agent and the tools of session `FAKE_AGENT_SESSION_ID` are killed.
 */
export function startFakeAgent(
  t: { after(fn: () => void): void },
  args: string[],
  env: NodeJS.ProcessEnv,
): RunningAgent {
  const child = spawn(process.execPath, [fakeAgent, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  t.after(() => {
    child.kill('SIGKILL');
    if (env.FAKE_AGENT_SESSION_ID) killToolsOf(env.FAKE_AGENT_SESSION_ID);
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, stderr: () => stderr, exited };
}

/** Live processes whose environment holds NAME=VALUE (how the real agents' tool processes can be told apart). */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readProcStat(pid);
        return (
          stat !== null && !isZombie(stat) && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(wanted)
        );
      } catch {
        return false;
      }
    });
}

/** Kills the tool processes the fake (or a real) agent started for this session. */
export function killToolsOf(sessionId: string): void {
  for (const name of ['CODEX_THREAD_ID', 'CLAUDE_CODE_SESSION_ID']) {
    for (const pid of processesWithEnv(name, sessionId)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Kills what fake agents logging to this argv log left running (the crash scenario's setsid
 * tool keeps the run tag, so the next run would rightly refuse to start beside it; outside a
 * cgroup nothing else kills it), and waits until they are gone.
 */
export async function killAgentLeftovers(argvLogPath: string): Promise<void> {
  for (const pid of processesWithEnv('FAKE_AGENT_ARGV_LOG', argvLogPath)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await waitFor(
    () => processesWithEnv('FAKE_AGENT_ARGV_LOG', argvLogPath).length === 0,
    5000,
    'leftover agent processes to be gone',
  );
}

export function argvLog(path: string): string[][] {
  return wholeJsonLines<string[]>(path);
}
