import assert from 'node:assert/strict';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot, waitFor } from '../helpers/cli.ts';
import type { UserManager } from '../helpers/systemd.ts';

/**
 * The workload every unit deadman generates or ships must carry (test/units/workload-agent.sh):
 * writes to HOME, the working directory, /tmp and /var/tmp, mktemp, a tool in a session of its
 * own, a loopback connection. `runWorkload` starts a unit under a real user manager and checks
 * that READY=1 arrived, `Status:` showed, every step worked and the work finished with exit 0.
 */

export const workloadAgent = join(repoRoot, 'test', 'units', 'workload-agent.sh');
export const WORKLOAD_STEPS = ['home', 'cwd', 'tmp', 'var-tmp', 'mktemp', 'setsid', 'loopback'];

export interface Loopback {
  port: number;
  /** Greetings received so far, one per workload that connected. */
  greetings: string[];
}

/** A loopback server the workloads connect to; closed when the test ends. */
export async function startLoopback(t: { after(fn: () => void): void }): Promise<Loopback> {
  const greetings: string[] = [];
  const server = createServer((socket) => {
    let text = '';
    socket
      .setEncoding('utf8')
      .on('data', (chunk: string) => (text += chunk))
      .on('end', () => greetings.push(text.trim()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { port: address.port, greetings };
}

/** A working directory for one workload; owned by `uid` when given (a unit with User=). */
export function workDir(t: { after(fn: () => void): void }, parent: string, uid?: number, gid = uid): string {
  const dir = mkdtempSync(join(parent, '.deadman-workload-'));
  if (uid !== undefined) chownSync(dir, uid, gid!);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The environment the agent reads: where to connect, which Node to use, which file releases it. */
export function workloadEnv(loopback: Loopback, work: string): Record<string, string> {
  return {
    WORKLOAD_PORT: String(loopback.port),
    WORKLOAD_NODE: process.execPath,
    WORKLOAD_RELEASE: join(work, 'release'),
  };
}

function stepsOf(work: string): string[] {
  const file = join(work, 'workload-steps');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

function managerLog(manager: UserManager): string {
  return readFileSync(manager.logPath, 'utf8').split('\n').slice(-15).join('\n');
}

/** Starts `unit` (a Type=notify service running the workload in `work`) and checks it end to end. */
export async function runWorkload(manager: UserManager, unit: string, work: string, loopback: Loopback): Promise<void> {
  const before = loopback.greetings.length;
  const started = await manager.systemctl('start', '--no-block', unit);
  assert.equal(started.code, 0, started.stderr);
  // Type=notify: "active" only once READY=1 was taken; deadman's Status: follows it.
  await manager
    .waitFor(unit, (p) => p.ActiveState === 'active' && (p.StatusText ?? '').startsWith('ok'), 20_000)
    .catch((error: Error) => assert.fail(`${unit}: no READY=1 / Status: ${error.message}\n${managerLog(manager)}`));
  assert.match(await manager.status(unit), /Status: "ok · /);
  await waitFor(() => stepsOf(work).length === WORKLOAD_STEPS.length, 20_000, `${unit}: the workload's steps`).catch(
    () => {
      assert.fail(`${unit}: steps ${JSON.stringify(stepsOf(work))}\n${managerLog(manager)}`);
    },
  );
  assert.deepEqual(
    stepsOf(work),
    WORKLOAD_STEPS.map((step) => `ok ${step}`),
    unit,
  );
  writeFileSync(join(work, 'release'), '');
  const done = await manager.waitFor(unit, (p) => p.ActiveState === 'inactive' || p.ActiveState === 'failed', 20_000);
  assert.deepEqual(
    [done.Result, done.ExecMainStatus],
    ['success', '0'],
    `${unit}: ${JSON.stringify(done)}\n${managerLog(manager)}`,
  );
  assert.equal(
    readFileSync(join(work, 'tool-output'), 'utf8'),
    'tool\n',
    'the setsid tool wrote into the working directory',
  );
  await waitFor(() => loopback.greetings.length > before, 5_000, `${unit}: the loopback connection`);
  assert.deepEqual(loopback.greetings.slice(before), ['hello from the unit']);
}

/** Runs a oneshot unit to its end and checks it succeeded. */
export async function runOneshot(manager: UserManager, unit: string): Promise<void> {
  const started = await manager.systemctl('start', unit);
  const done = await manager.show(unit);
  assert.deepEqual(
    [started.code, done.Result, done.ExecMainStatus],
    [0, 'success', '0'],
    `${unit}: ${started.stderr} ${JSON.stringify(done)}\n${managerLog(manager)}`,
  );
}
