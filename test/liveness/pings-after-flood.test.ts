import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, tempDir } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';
import { startHostNoise } from '../helpers/liveness-cases.ts';

/**
 * Issue 38, item 8: a unit ended Result=watchdog after a Codex flood's last byte had passed.
 * Each tool end asks git for a workspace fingerprint (up to 20 a second); on a loaded host git
 * is slower than that, and the questions queued without bound. Every tick waited for them (the
 * tick outlasted its budget, so the pings were withheld as for a stuck loop), and so did the
 * pass's end, after its watchdog had stopped: 3.5–95 s without a ping at the flood's tail.
 * Here git takes 200 ms (a wrapper first in PATH: a big work tree on a busy host), both cores
 * are busy, and every gap between WATCHDOG=1 pings, to the run's exit, must stay under
 * WatchdogSec — stretched by the host's own run-queue wait, as the ping timer is.
 */

const WATCHDOG_MS = 2_000;
const CYCLES = 150_000;
const flood = join(repoRoot, 'dist', 'test', 'fixtures', 'codex-flood.js');

test(
  "a Codex flood through a slow git on a busy host: no gap between watchdog pings reaches WatchdogSec, to the run's end",
  { timeout: 120_000 },
  async (t) => {
    const dir = tempDir(t);
    const work = join(dir, 'work');
    mkdirSync(work);
    execFileSync('git', ['init', '-q'], { cwd: work });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nsleep 0.2\nexec ${realGit} "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const socket = join(dir, 'notify.sock');
    const receiver = spawn('python3', [fixturePath('notify-receiver.py'), socket], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    t.after(() => receiver.kill('SIGKILL'));
    const pings: number[] = [];
    let heard = '';
    receiver.stdout.setEncoding('utf8').on('data', (text: string) => {
      heard += text;
      for (const line of text.split('\n')) if (line.endsWith(' WATCHDOG=1')) pings.push(performance.now());
    });
    while (!heard.includes('listening')) await new Promise((resolve) => setTimeout(resolve, 20));
    t.after(startHostNoise({ busyCores: 2 }));
    const host = measureHostDelay();
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      STATE_DIRECTORY: join(dir, 'state'),
      DEADMAN_CONFIG: '',
      NOTIFY_SOCKET: socket,
      WATCHDOG_USEC: String(WATCHDOG_MS * 1000),
      WATCHDOG_PID: '',
      JOURNAL_STREAM: '',
    };
    const run = spawn(
      process.execPath,
      [deadmanBin, 'run', '--adapter', 'codex', '--inactivity', '60s', '--', process.execPath, flood, String(CYCLES)],
      { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    t.after(() => run.kill('SIGKILL'));
    let lines = 0;
    let stderr = '';
    run.stdout.on('data', (chunk: Buffer) => (lines += chunk.toString('latin1').split('\n').length - 1));
    run.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    let ended: number | null | undefined;
    let endedAt = 0;
    void exited.then((code) => ([ended, endedAt] = [code, performance.now()]));
    // A bound for a gap: WatchdogSec, or the ping interval as long as the host made the timer wait.
    const bound = () => Math.max(WATCHDOG_MS, host.scaled(WATCHDOG_MS / 2));
    const worst = () => Math.max(0, ...pings.slice(1).map((at, i) => at - pings[i]!));
    // Fails as soon as a gap is over its bound: the old code's gap at the tail lasted for minutes.
    while (ended === undefined && (pings.length === 0 || performance.now() - pings.at(-1)! <= bound()))
      await new Promise((resolve) => setTimeout(resolve, 50));
    const tail = (ended === undefined ? performance.now() : endedAt) - (pings.at(-1) ?? 0);
    t.diagnostic(
      `${pings.length} pings, worst gap ${worst().toFixed(0)} ms, last ping ${tail.toFixed(0)} ms before the end; bound ${bound().toFixed(0)} ms (host stretch ${host.stretch().toFixed(1)}); ${lines} lines passed`,
    );
    assert.notEqual(
      ended,
      undefined,
      `no ping for ${(performance.now() - pings.at(-1)!).toFixed(0)} ms while deadman ran (bound ${bound().toFixed(0)} ms): ${stderr.trim().split('\n').slice(-2).join(' | ')}`,
    );
    assert.equal(ended, 0, stderr);
    assert.equal(lines, CYCLES * 3 + 3, 'every line of the flood passed');
    assert.ok(pings.length >= 2, `only ${pings.length} pings`);
    assert.ok(worst() <= bound(), `a gap of ${worst().toFixed(0)} ms between pings (bound ${bound().toFixed(0)} ms)`);
  },
);
