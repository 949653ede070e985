/**
 * Normalized data that flows through the supervision loop: what adapters make of the child's
 * output lines, and what the process observer makes of /proc or `ps`. Plain data only.
 */

export type AdapterName = 'codex' | 'claude' | 'generic';

export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** One normalized agent event, derived from one output line. */
export type AgentEvent =
  | { type: 'session'; sessionId: string }
  | { type: 'turn_started' }
  | { type: 'turn_completed' }
  | { type: 'turn_failed'; message: string }
  /** A tool call (shell command, MCP call, …) began; `toolId` is the agent's item/tool_use id. */
  | { type: 'tool_started'; toolId: string; command: string | null }
  /** `outputTail`: the end of what the tool printed, when the agent reports it (for REPEATED_FAILURE). */
  | { type: 'tool_finished'; toolId: string; exitCode: number | null; ok: boolean; outputTail?: string }
  /** Usage charged by this line (deltas, never cumulative totals). */
  | { type: 'usage'; usage: Usage; totalCostUsd?: number }
  /** A non-fatal error or warning the agent reported (retries, config warnings). */
  | { type: 'error'; message: string }
  /** The turn cannot go on: a plan or usage limit. The reset as the agent gave it (epoch seconds, or seconds from now), else null. */
  | { type: 'usage_limit'; resetsAtSec: number | null; resetsInSec: number | null; message: string };

export interface ParsedLine {
  /** True when the line is a well-formed event of the adapter's format (counts as activity). */
  recognized: boolean;
  events: AgentEvent[];
}

/** Turns output lines into events. Stateful only in memory (usage deltas, open tools); no I/O. */
export interface Adapter {
  readonly name: AdapterName;
  parseLine(line: string): ParsedLine;
}

/** One process as seen by one poll. `startTime` (clock ticks since boot on Linux) + pid is identity. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  startTime: number;
  /** Kernel state letter: R running, S sleeping, D disk wait, Z zombie, T stopped, … */
  state: string;
  comm: string;
  cmdline: string[];
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  /** cutime + cstime: CPU of children it reaped (Linux), so their work is not lost when they exit. */
  reapedCpuTicks?: number;
  /** rchar + wchar from /proc/<pid>/io (reaped children's included), or null when unreadable (macOS, other users). */
  ioBytes: number | null;
  /** Holds a listening TCP/UDP/unix socket: a server, never "hung". */
  listening: boolean;
}

export interface Observation {
  /** Monotonic milliseconds of the poll. */
  at: number;
  /** The supervised child (the root of the owned tree). */
  rootPid: number;
  /** Every owned process found, the root included; zombies excluded. */
  processes: ProcessInfo[];
  /** CPU time (ms) of the unit's cgroup minus deadman's own, when the run has one. */
  cgroupCpuMs?: number | null;
}

export function processKey(p: Pick<ProcessInfo, 'pid' | 'startTime'>): string {
  return `${p.pid}@${p.startTime}`;
}
