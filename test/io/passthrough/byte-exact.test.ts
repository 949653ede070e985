import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir } from '../../helpers/cli.ts';
import { query } from '../../helpers/db.ts';

/**
 * Whatever the adapter parses, deadman's stdout and stderr carry exactly the bytes the child
 * wrote (sha256 compared): a flood of short lines exiting right after its last write (the case
 * that lost a chunk under codex), one 100 MB line without a newline (far past max_line_bytes),
 * random bytes, and invalid UTF-8 — including JSON-looking lines an adapter tries to parse.
 */

const ADAPTERS = ['generic', 'codex', 'claude'] as const;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** 1,000,000 lines of "x" in 100 writes of 20,000 bytes, each after the last drained; exits 500 ms after the last. */
const SHORT_LINES = `const chunk = 'x\\n'.repeat(10_000); let i = 0;
const next = () => { while (i < 100) { i++; if (!process.stdout.write(chunk)) return void process.stdout.once('drain', next); } setTimeout(() => {}, 500); };
next();`;
/** 100 MB of "a" and no newline, in 1 MiB writes. */
const ONE_LONG_LINE = `const block = Buffer.alloc(1_000_000, 'a'); let i = 0;
const next = () => { while (i < 100) { i++; if (!process.stdout.write(block)) return void process.stdout.once('drain', next); } };
next();`;

interface Delivered {
  code: number | null;
  stdoutBytes: number;
  stdoutSha: string;
  stderr: Buffer;
}

function deadman(dir: string, adapter: string, command: string[]): Promise<Delivered> {
  const child = spawn(
    process.execPath,
    [deadmanBin, 'run', '--adapter', adapter, '--database', join(dir, `${adapter}.db`), '--', ...command],
    {
      env: { ...process.env, NOTIFY_SOCKET: '', STATE_DIRECTORY: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stdout = createHash('sha256');
  let stdoutBytes = 0;
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.update(chunk);
    stdoutBytes += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ code, stdoutBytes, stdoutSha: stdout.digest('hex'), stderr: Buffer.concat(stderr) }),
    ),
  );
}

/** The child's stderr within deadman's: between deadman's start-up line and its closing line. */
function childStderr(stderr: Buffer): Buffer {
  const start = stderr.indexOf('\n') + 1;
  const end = stderr.lastIndexOf('deadman: run ');
  assert.ok(
    start > 0 && end >= start,
    `deadman's own lines frame the child's stderr: ${stderr.subarray(0, 200).toString()}`,
  );
  return stderr.subarray(start, end);
}

/** Random bytes, and lines that are not UTF-8 (some looking like agent events). */
function writeNastyFiles(dir: string): { random: string; invalid: string; expected: Buffer; expectedStderr: Buffer } {
  const randomBytesFile = randomBytes(4 * 1024 * 1024);
  const invalidUtf8 = Buffer.concat(
    Array.from({ length: 2000 }, (_, i) =>
      Buffer.concat([
        Buffer.from(`{"type":"item.started","item":{"id":"${i}","text":"`),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
        Buffer.from('"}}\n'),
        Buffer.from([0x80, 0xbf, 0xed, 0xa0, 0x80, 0x0a]),
        Buffer.from([0xf0, 0x9f, 0x92]),
      ]),
    ),
  );
  const random = join(dir, 'random.bin');
  const invalid = join(dir, 'invalid.bin');
  writeFileSync(random, randomBytesFile);
  writeFileSync(invalid, invalidUtf8);
  return {
    random,
    invalid,
    expected: Buffer.concat([randomBytesFile, invalidUtf8]),
    expectedStderr: Buffer.concat([invalidUtf8, randomBytesFile]),
  };
}

for (const adapter of ADAPTERS) {
  test(`${adapter}: stdout and stderr are byte-exact for short lines, a 100 MB line, random bytes and invalid UTF-8`, async (t) => {
    const dir = tempDir(t);

    const lines = await deadman(dir, adapter, [process.execPath, '-e', SHORT_LINES]);
    assert.equal(lines.code, 0, lines.stderr.toString());
    assert.equal(lines.stdoutBytes, 2_000_000, 'every one of 1,000,000 short lines');
    assert.equal(lines.stdoutSha, sha256(Buffer.from('x\n'.repeat(1_000_000))));
    if (adapter !== 'generic') {
      // An adapter records lines as events: the flood overflows the queue, and the run says how much.
      const [last] = query<{ data: { total: number } }>(
        join(dir, `${adapter}.db`),
        "SELECT data FROM events WHERE kind = 'dropped' ORDER BY id DESC LIMIT 1",
      );
      assert.ok(
        last && last.data.total > 0 && last.data.total < 1_000_000,
        `dropped-from-records count: ${JSON.stringify(last)}`,
      );
    }

    const long = await deadman(dir, adapter, [process.execPath, '-e', ONE_LONG_LINE]);
    assert.equal(long.code, 0, long.stderr.toString());
    assert.equal(long.stdoutBytes, 100_000_000);
    assert.equal(long.stdoutSha, sha256(Buffer.alloc(100_000_000, 'a')));

    const files = writeNastyFiles(dir);
    const nasty = await deadman(dir, adapter, [
      'sh',
      '-c',
      `cat "$0" "$1"; cat "$1" "$0" >&2`,
      files.random,
      files.invalid,
    ]);
    assert.equal(nasty.code, 0, nasty.stderr.subarray(-500).toString());
    assert.equal(nasty.stdoutSha, sha256(files.expected), 'stdout');
    assert.equal(sha256(childStderr(nasty.stderr)), sha256(files.expectedStderr), 'stderr');
  });
}
