import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir } from '../helpers/cli.ts';

const CHUNK = 64 * 1024 * 1024;
const REPEAT = 16;

test("1 GiB through stdout arrives byte-identical, and deadman's peak RSS stays bounded", async (t) => {
  const dir = tempDir(t);
  const block = randomBytes(CHUNK);
  const file = join(dir, 'block.bin');
  writeFileSync(file, block);
  const expected = createHash('sha256');
  for (let i = 0; i < REPEAT; i++) expected.update(block);

  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--database',
      join(dir, 'deadman.db'),
      '--',
      'sh',
      '-c',
      `for i in $(seq ${REPEAT}); do cat ${file}; done`,
    ],
    { env: { ...process.env, NOTIFY_SOCKET: '', STATE_DIRECTORY: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const received = createHash('sha256');
  let bytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    received.update(chunk);
    bytes += chunk.length;
  });
  let peakKb = 0;
  const sampler = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // exited between samples
    }
  }, 50);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  assert.equal(code, 0);
  assert.equal(bytes, CHUNK * REPEAT);
  assert.equal(received.digest('hex'), expected.digest('hex'));
  assert.ok(peakKb > 0, "sampled deadman's memory");
  assert.ok(peakKb < 120 * 1024, `peak RSS ${Math.round(peakKb / 1024)} MiB`);
  t.diagnostic(`peak RSS ${Math.round(peakKb / 1024)} MiB for 1 GiB passed through`);
});
