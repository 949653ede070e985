import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, waitFor } from '../../helpers/cli.ts';
import type { Turn } from '../model-server/script.ts';
import { wholeJsonLines } from '../../helpers/json-lines.ts';

/**
 * The scripted model server, started inside a fresh loopback-only network namespace
 * (`unshare -n`, then `lo` up): it is the namespace's first process, and everything a test runs
 * against it enters that namespace through `nsenter`, so no byte of a real agent leaves the host.
 */

export interface LoggedRequest {
  serial: number;
  at: number;
  path: string;
  kind: 'responses' | 'messages' | 'other';
  turn: Turn['kind'] | null;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface ModelServer {
  url: string;
  /** Every request received so far, in order. */
  requests(): LoggedRequest[];
  /** The model requests of the conversation (Responses or Messages), without any other path. */
  turns(): LoggedRequest[];
  /** `file args` rewritten to run inside the namespace. */
  inside(file: string, args: string[]): [string, string[]];
  /** Every live process in the namespace but the server: deadman, the agent, its tools. */
  processes(): number[];
  /** SIGKILLs all of them at once, as a host that loses power (the server stands for the remote backend). */
  killHost(): void;
}

function netNamespace(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

function processesIn(namespace: string | null, except: number): number[] {
  if (namespace === null) return [];
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => pid !== except && netNamespace(pid) === namespace);
}

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/**
 * A host that loses power stops every process at once; one pass of kills does not: a process
 * the agent forks between the listing and its own SIGKILL (Claude starts helpers all the time)
 * would outlive the "dead" host. Kill what the namespace holds until it holds nothing.
 */
function killHost(processes: () => number[]): void {
  const deadline = Date.now() + 5_000;
  for (let left = processes(); left.length > 0 && Date.now() < deadline; left = processes()) killAll(left);
}

const serverMain = join(repoRoot, 'dist', 'test', 'agents', 'model-server', 'main.js');

export async function startModelServer(
  t: { after(fn: () => void): void },
  dir: string,
  turns: Turn[],
): Promise<ModelServer> {
  const script = join(dir, 'model-script.json');
  const log = join(dir, 'model-requests.jsonl');
  const portFile = join(dir, 'model-port');
  writeFileSync(script, JSON.stringify({ turns }));
  writeFileSync(log, '');
  const server: ChildProcess = spawn(
    'unshare',
    [
      '-n',
      '--',
      'sh',
      '-c',
      'ip link set lo up && exec "$0" "$@"',
      process.execPath,
      serverMain,
      script,
      log,
      portFile,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitFor(() => existsSync(portFile) || server.exitCode !== null, 10_000, 'the model server to listen');
  if (!existsSync(portFile)) throw new Error(`the model server did not start (exit ${server.exitCode})`);
  const namespace = netNamespace(server.pid!);
  const processes = () => processesIn(namespace, server.pid!);
  // Whatever a test left in the namespace goes with it: nothing it started outlives the test.
  t.after(() => {
    killAll(processes());
    server.kill('SIGKILL');
  });
  const requests = () => wholeJsonLines<LoggedRequest>(log);
  return {
    url: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}`,
    requests,
    turns: () => requests().filter((r) => r.kind !== 'other'),
    inside: (file, args) => ['nsenter', [`--net=/proc/${server.pid}/ns/net`, '--', file, ...args]],
    processes,
    killHost: () => killHost(processes),
  };
}
