import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimSchema, type Claim } from '../../../lib/core/config/config.ts';
import { evaluateClaim, evaluateClaims, evaluateJobs } from '../../../lib/io/evidence/evidence.ts';
import { tempDir } from '../../helpers/cli.ts';

const DAY = 86_400_000;
/** The schema refuses a path or glob outside its root; the check at run time must hold anyway, so such claims are built past it. */
const claim = (raw: Record<string, unknown>): Claim => {
  const { path, glob, ...rest } = raw;
  const inside = {
    ...rest,
    ...(path === undefined ? {} : { path: `${String(raw.root)}/x` }),
    ...(glob === undefined ? {} : { glob: `${String(raw.root)}/*` }),
  };
  return {
    ...claimSchema.parse(raw.kind === 'file' ? inside : raw),
    ...(raw.kind === 'file' ? { path, glob } : {}),
  } as Claim;
};
const verdictOf = async (raw: Record<string, unknown>) => {
  const v = await evaluateClaim(claim(raw), 0, Date.now);
  return [v.verdict, v.reason] as const;
};

let server: Server;
let base: string;
let closedPortUrl: string;

before(async () => {
  server = createServer((request, response) => {
    switch (request.url) {
      case '/ok':
        response.end('{"status": "ok"}');
        break;
      case '/degraded':
        response.end('{"status": "degraded"}');
        break;
      case '/fail':
        response.writeHead(500).end('boom');
        break;
      case '/moved':
        response.writeHead(302, { location: '/ok' }).end();
        break;
      case '/slow':
        break; // never answers
      case '/cut':
        response.writeHead(200, { 'content-length': '1000' }).write('{"status": "ok"');
        setTimeout(() => response.socket?.destroy(), 20);
        break;
      case '/huge': {
        response.write('{"status": "ok"}');
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (response.write(chunk));
        };
        response.on('drain', pump);
        pump();
        response.on('close', () => response.off('drain', pump));
        break;
      }
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPortUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/health`;
  await new Promise((resolve) => probe.close(resolve));
});

after(() => {
  server.closeAllConnections();
  server.close();
});

test('file claims against real files', async (t) => {
  const root = join(tempDir(t), 'export');
  mkdirSync(root);
  writeFileSync(join(root, 'export-2026-09-10.csv'), '');
  writeFileSync(join(root, 'backup.tar.gz'), 'data');
  const fourDaysAgo = (Date.now() - 4 * DAY - 60_000) / 1000;
  utimesSync(join(root, 'backup.tar.gz'), fourDaysAgo, fourDaysAgo);
  writeFileSync(join(root, 'future.csv'), 'x');
  const twoHoursAhead = (Date.now() + 2 * 3_600_000 + 60_000) / 1000;
  utimesSync(join(root, 'future.csv'), twoHoursAhead, twoHoursAhead);
  mkdirSync(`${root}-secrets`);
  writeFileSync(`${root}-secrets/key.csv`, 'secret');
  symlinkSync(`${root}-secrets/key.csv`, join(root, 'link.csv'));
  symlinkSync(join(root, 'loop'), join(root, 'loop'));
  const file = (extra: Record<string, unknown>) => verdictOf({ kind: 'file', root, ...extra });

  assert.deepEqual(await file({ path: join(root, 'export-2026-09-10.csv'), non_empty: true }), [
    'dead',
    'export-2026-09-10.csv is 0 bytes',
  ]);
  assert.deepEqual(await file({ path: join(root, 'backup.tar.gz'), max_age: '6h' }), [
    'dead',
    'backup.tar.gz is 4 days stale',
  ]);
  assert.deepEqual(await file({ glob: `${root}/*.parquet` }), ['dead', `no file matches ${root}/*.parquet`]);
  assert.deepEqual(await file({ path: join(root, 'link.csv') }), [
    'dead',
    `link.csv resolves to ${root}-secrets/key.csv, outside root ${root}`,
  ]);
  assert.deepEqual(await file({ path: `${root}-secrets/key.csv` }), [
    'dead',
    `${root}-secrets/key.csv is outside root ${root}`,
  ]);
  assert.deepEqual(await file({ path: `${root}/../export-secrets/key.csv` }), [
    'dead',
    `path ${root}/../export-secrets/key.csv contains ".."; write the path without it`,
  ]);
  assert.deepEqual(await file({ path: join(root, 'future.csv'), max_age: '6h' }), [
    'unknown',
    'future.csv has a modification time 2 hours in the future; check the clocks',
  ]);
  assert.deepEqual(await file({ path: join(root, 'loop') }), [
    'unknown',
    `cannot inspect ${root}/loop: too many levels of symbolic links`,
  ]);
  assert.deepEqual(await file({ path: join(root, 'nope.csv') }), ['dead', `${root}/nope.csv does not exist`]);
  assert.deepEqual(await file({ path: root }), ['dead', `${root} is not a regular file`]);
  const backupAlive = await file({ path: join(root, 'backup.tar.gz'), max_age: '5d' });
  assert.deepEqual(backupAlive, ['alive', 'backup.tar.gz: 4 bytes, modified 4 days ago']);
});

test('a glob is judged by its newest match; an escaping symlink never counts', async (t) => {
  const dir = tempDir(t);
  const root = join(dir, 'export');
  mkdirSync(root);
  const at = (name: string, content: string, ageMs: number) => {
    writeFileSync(join(root, name), content);
    const seconds = (Date.now() - ageMs) / 1000;
    utimesSync(join(root, name), seconds, seconds);
  };
  at('export-2026-09-08.csv', 'full', 2 * DAY);
  at('export-2026-09-09.csv', '', 3_600_000);
  const glob = { kind: 'file', root, glob: `${root}/*.csv`, non_empty: true, max_age: '6h' };
  assert.deepEqual(await verdictOf(glob), ['dead', 'export-2026-09-09.csv is 0 bytes']);
  at('export-2026-09-10.csv', 'a,b\n', 60_000);
  assert.equal((await verdictOf(glob))[0], 'alive');
  writeFileSync(join(dir, 'outside.csv'), 'not evidence');
  symlinkSync(join(dir, 'outside.csv'), join(root, 'zzz.csv'));
  assert.equal((await verdictOf(glob))[0], 'alive', 'the in-scope newest file still decides');
  const only = join(dir, 'only');
  mkdirSync(only);
  symlinkSync(join(dir, 'outside.csv'), join(only, 'x.csv'));
  assert.deepEqual(await verdictOf({ kind: 'file', root: only, glob: `${only}/*.csv` }), [
    'dead',
    `x.csv resolves to ${dir}/outside.csv, outside root ${only}`,
  ]);
  assert.deepEqual(await verdictOf({ kind: 'file', root, glob: `${dir}/*.csv` }), [
    'dead',
    `${dir}/*.csv is outside root ${root}`,
  ]);
});

test('min_lines and contains read a large file only at its ends', async (t) => {
  const root = tempDir(t);
  const mib = 1024 * 1024;
  writeFileSync(join(root, 'big.log'), `START\n${'x'.repeat(mib)}\nMIDDLE\n${'y'.repeat(mib)}\nEND\n`);
  writeFileSync(join(root, 'small.csv'), 'h\n1\n2\n');
  const file = (path: string, extra: Record<string, unknown>) =>
    verdictOf({ kind: 'file', root, path: join(root, path), ...extra });
  assert.equal((await file('big.log', { contains: '^END$' }))[0], 'alive');
  assert.equal((await file('big.log', { contains: '^START$' }))[0], 'alive');
  assert.deepEqual(await file('big.log', { contains: '^MIDDLE$' }), [
    'dead',
    'big.log does not contain /^MIDDLE$/ in its first and last 1 MiB',
  ]);
  assert.equal((await file('big.log', { min_lines: 3 }))[0], 'alive');
  assert.equal((await file('big.log', { min_lines: 6 }))[0], 'unknown');
  assert.equal((await file('small.csv', { min_lines: 3 }))[0], 'alive');
  assert.deepEqual(await file('small.csv', { min_lines: 4 }), ['dead', 'small.csv has 3 lines (expected at least 4)']);
});

test('command claims: exit status, stdout regex, timeout and a missing program', async () => {
  const command = (argv: string[], extra: Record<string, unknown> = {}) =>
    verdictOf({ kind: 'command', command: argv, ...extra });
  assert.deepEqual(await command(['sh', '-c', 'echo 2026-09-10']), ['alive', 'sh exited 0']);
  assert.deepEqual(await command(['sh', '-c', 'echo 0 rows'], { stdout_matches: '^[1-9]\\d* rows$' }), [
    'dead',
    'sh output does not match /^[1-9]\\d* rows$/',
  ]);
  assert.deepEqual(await command(['sh', '-c', 'echo "queue has 40 items" >&2; exit 1']), [
    'dead',
    'sh exited 1: queue has 40 items',
  ]);
  const slow = await command(['sleep', '30'], { timeout: '300ms' });
  assert.equal(slow[0], 'unknown');
  assert.match(slow[1], /^sleep timed out after \d+ms$/);
  assert.deepEqual(await command(['/nonexistent/check']), [
    'unknown',
    'cannot run /nonexistent/check: command not found',
  ]);
});

test('http claims against a loopback server', async () => {
  const http = (path: string, extra: Record<string, unknown> = {}) =>
    verdictOf({ kind: 'http', url: `${base}${path}`, ...extra });
  assert.deepEqual(await http('/ok', { body_matches: '"status":\\s*"ok"' }), ['alive', `GET ${base}/ok returned 200`]);
  assert.deepEqual(await http('/fail'), ['dead', `GET ${base}/fail returned 500 (expected 200-299)`]);
  assert.deepEqual(await http('/degraded', { body_matches: '"status":\\s*"ok"' }), [
    'dead',
    `GET ${base}/degraded returned 200 but its body does not match /"status":\\s*"ok"/`,
  ]);
  assert.deepEqual(await http('/moved'), ['dead', `GET ${base}/moved returned 302 (expected 200-299)`]);
  assert.deepEqual(await http('/huge', { body_matches: '^\\{"status": "ok"\\}' }), [
    'alive',
    `GET ${base}/huge returned 200`,
  ]);
  assert.deepEqual(await http('/cut', { body_matches: 'ok' }), ['unknown', `GET ${base}/cut failed: connection reset`]);
  const slow = await http('/slow', { timeout: '300ms' });
  assert.equal(slow[0], 'unknown');
  assert.match(slow[1], /timed out after \d+ms$/);
  assert.deepEqual(await verdictOf({ kind: 'http', url: closedPortUrl }), [
    'unknown',
    `GET ${closedPortUrl} failed: connection refused`,
  ]);
});

test('many claims are evaluated in order, grouped per job', async (t) => {
  const root = tempDir(t);
  writeFileSync(join(root, 'full'), 'x');
  writeFileSync(join(root, 'empty'), '');
  const claims = Array.from({ length: 50 }, (_, i) =>
    claim({ kind: 'file', root, path: join(root, i % 2 ? 'empty' : 'full'), non_empty: true }),
  );
  const verdicts = await evaluateClaims(claims, Date.now, 4);
  assert.deepEqual(
    verdicts.map((v) => v.verdict),
    claims.map((_, i) => (i % 2 ? 'dead' : 'alive')),
  );
  assert.deepEqual(
    verdicts.slice(0, 2).map((v) => v.claim),
    ['file-1', 'file-2'],
  );
  const jobs = await evaluateJobs(
    [
      ['a', { rerun: ['true'], timeout: 1000, evidence: [claims[0]!, claims[1]!] }],
      ['b', { rerun: ['true'], timeout: 1000, evidence: [claims[0]!] }],
      [
        'c',
        {
          rerun: ['true'],
          timeout: 1000,
          evidence: [claims[0]!, claim({ kind: 'command', command: ['/nonexistent'] })],
        },
      ],
    ],
    Date.now,
  );
  assert.deepEqual(
    jobs.map((j) => [j.job, j.verdict, j.claims.length]),
    [
      ['a', 'dead', 2],
      ['b', 'alive', 1],
      ['c', 'unknown', 2],
    ],
  );
});
