import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, type Finished } from '../../helpers/cli.ts';
import type { AgentCommand } from './agent-command.ts';
import type { ModelServer } from './model-server.ts';

/** A deadman command started inside the model server's namespace; `child.pid` is deadman itself (nsenter execs it). */
export interface Started {
  child: ChildProcess;
  finished: Promise<Finished & { ms: number }>;
  database: string;
}

/**
 * Runs `deadman ARGS` inside the namespace with the agent's environment and its work directory
 * `dir/work`; for `run`, the agent's command line follows `--`.
 */
export function deadmanInNamespace(server: ModelServer, dir: string, agent: AgentCommand, args: string[]): Started {
  const database = join(dir, 'state', 'deadman.db');
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const [file, argv] = server.inside(process.execPath, [deadmanBin, ...args]);
  const started = performance.now();
  const child = spawn(file, argv, { cwd: work, env: agent.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const finished = new Promise<Finished & { ms: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started }));
  });
  return { child, finished, database };
}

/** `deadman run [flags] -- <agent>`, recorded in `dir/state`. */
export function runAgent(server: ModelServer, dir: string, agent: AgentCommand, flags: string[]): Started {
  return deadmanInNamespace(server, dir, agent, ['run', ...flags, '--', ...agent.argv]);
}
