import { readFileSync, readlinkSync } from 'node:fs';
import { splitProgram, type AgentKind } from '../../core/adapters/program.ts';
import { inRepository } from '../../core/session/watched-session.ts';
import { listAllPids } from '../process/proc-read.ts';
import { readProcStat, USER_HZ } from '../process/process-identity.ts';

/**
 * Running Codex and Claude Code processes that deadman did not start, found by their command
 * line and working directory (Linux /proc), and the wall time a process started at — so a
 * process can be judged older or newer than a tool call the session file shows.
 */

export interface RunningAgent {
  pid: number;
  agent: AgentKind;
  cwd: string;
  cmdline: string[];
}

/** Agents working inside `root`; a wrapper's own agent child (the npm shim's native binary) is not listed twice. */
export function runningAgents(root: string, selfPid = process.pid): RunningAgent[] {
  const found = new Map<number, RunningAgent & { ppid: number }>();
  for (const pid of listAllPids()) {
    if (pid === selfPid) continue;
    const agent = agentAt(pid);
    if (agent && inRepository(agent.cwd, root)) found.set(pid, agent);
  }
  return [...found.values()].filter((a) => !found.has(a.ppid)).map(({ ppid: _ppid, ...agent }) => agent);
}

/** The agent running as `pid`, whatever its directory; null for any other process. */
export function agentAt(pid: number): (RunningAgent & { ppid: number }) | null {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg !== '');
    const { agent } = splitProgram(cmdline);
    const stat = readProcStat(pid);
    if (agent === null || stat === null || stat.state === 'Z') return null;
    return { pid, agent, cwd: readlinkSync(`/proc/${pid}/cwd`), cmdline, ppid: stat.ppid };
  } catch {
    return null; // gone, or another user's
  }
}

function bootTimeMs(): number {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('btime '));
  return Number(line?.slice('btime '.length) ?? 0) * 1000;
}

/** Converts /proc start times to wall ms (the boot time is read once). */
export function startTimeToWall(): (startTime: number) => number {
  const boot = bootTimeMs();
  return (startTime) => boot + (startTime * 1000) / USER_HZ;
}
