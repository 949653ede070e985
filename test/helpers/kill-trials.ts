import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { listMarkers } from '../../lib/io/revive/markers.ts';
import { deadmanBin, runDeadman, waitFor } from './cli.ts';
import { isRunning } from './process-tree.ts';

/**
 * SIGKILL of deadman at a random moment of a run — starting, writing events, finishing — and
 * what must hold afterwards: every marker parses (or there is none), the database passes
 * `PRAGMA integrity_check`, and the next run of the same name starts and keeps its exit code.
 * Shared by the test suite (a few dozen trials) and bench/kill-trials.ts (a few hundred).
 */

/**
 * A codex-adapter child that prints many short lines (each one an events row), then lingers as
 * the same pid (exec), which it writes to child.pid: an orphan left by the kill is waited for
 * before the next run, which rightly refuses to start beside a live process of its session.
 */
const CHILD = [
  'sh',
  '-c',
  'echo $$ > child.pid; i=0; while [ $i -lt 3000 ]; do echo "{\\"type\\":\\"note\\",\\"n\\":$i}"; i=$((i+1)); done; exec sleep 1',
];

export interface KillTrialsResult {
  trials: number;
  failures: string[];
}

export async function runKillTrials(
  root: string,
  trials: number,
  concurrency: number,
  maxDelayMs = 900,
): Promise<KillTrialsResult> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let trial = next++; trial < trials; trial = next++) {
      const problem = await killTrial(join(root, `trial-${trial}`), Math.random() * maxDelayMs);
      if (problem) failures.push(`trial ${trial}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { trials, failures };
}

async function killTrial(dir: string, delayMs: number): Promise<string | null> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `name = "trial"\nstate_dir = ${JSON.stringify(dir)}\nadapter = "codex"\ninactivity = "1min"\n`);
  const env = {
    ...process.env,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: '',
    WATCHDOG_USEC: '',
    INVOCATION_ID: '',
    JOURNAL_STREAM: '',
  };
  const victim = spawn(process.execPath, [deadmanBin, 'run', '--config', config, '--', ...CHILD], {
    cwd: dir,
    env,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => victim.once('exit', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  victim.kill('SIGKILL');
  await exited;
  const broken = (await listMarkers(join(dir, 'markers'))).filter((read) => read.status === 'problem');
  if (broken.length > 0)
    return `marker does not parse after a kill at ${Math.round(delayMs)} ms: ${JSON.stringify(broken)}`;
  const database = join(dir, 'deadman.db');
  if (existsSync(database)) {
    const db = new DatabaseSync(database);
    try {
      const check = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
      if (check.map((row) => row.integrity_check).join() !== 'ok')
        return `integrity_check after a kill at ${Math.round(delayMs)} ms: ${JSON.stringify(check)}`;
    } finally {
      db.close();
    }
  }
  const childPid = existsSync(join(dir, 'child.pid')) ? Number(readFileSync(join(dir, 'child.pid'), 'utf8')) : 0;
  if (childPid > 0) await waitFor(() => !isRunning(childPid), 10_000, `the orphaned child ${childPid} to end`);
  const after = await runDeadman(['run', '--config', config, '--', 'sh', '-c', 'exit 3'], { cwd: dir, env });
  return after.code === 3
    ? null
    : `the next run after a kill at ${Math.round(delayMs)} ms exited ${after.code}: ${after.stderr.trim()}`;
}
