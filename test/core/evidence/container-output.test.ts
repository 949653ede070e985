import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseClock, parseFind, parseRealpath, parseStat } from '../../../lib/core/evidence/container-output.ts';

/**
 * Outputs recorded with LC_ALL=C from GNU coreutils 9.1 / findutils 4.9.0 and busybox 1.35.0
 * (Debian bookworm), as root and as nobody, over a tree with a file, an empty file, a directory,
 * a dangling symlink and a directory only root may enter.
 */

const D = '/data/out';

test('the clock: seconds and the zone, east positive; anything else is no clock', () => {
  assert.deepEqual(parseClock('1796606542 +0000\n'), { epochMs: 1796606542000, utcOffsetMinutes: 0 });
  assert.deepEqual(parseClock('1796606542 +0530\n'), { epochMs: 1796606542000, utcOffsetMinutes: 330 });
  assert.deepEqual(parseClock('1796606542 -0700'), { epochMs: 1796606542000, utcOffsetMinutes: -420 });
  // busybox 1.35 prints +2400 for TZ=UTC-0530 (it misreads a POSIX zone without a colon): refused, not trusted.
  assert.equal(parseClock('1796606542 +2400'), null);
  for (const bad of ['', '%s %z', 'Mon Dec  7 01:14:21 UTC 2026', '1796606542', '1796606542 UTC'])
    assert.equal(parseClock(bad), null, bad);
});

const paths = [`${D}/a.csv`, `${D}/empty.csv`, `${D}/sub`, `${D}/missing`, `${D}/a.csv/x`, `${D}/dangling`];
const statOut = `81a4 9 1733540000 ${D}/a.csv\n81a4 0 1733540000 ${D}/empty.csv\n41ed 4096 1796606541 ${D}/sub\n`;
const expected = [
  { path: `${D}/a.csv`, state: 'present', isFile: true, size: 9, mtimeMs: 1733540000000 },
  { path: `${D}/empty.csv`, state: 'present', isFile: true, size: 0, mtimeMs: 1733540000000 },
  { path: `${D}/sub`, state: 'present', isFile: false, size: 4096, mtimeMs: 1796606541000 },
  { path: `${D}/missing`, state: 'missing' },
  { path: `${D}/a.csv/x`, state: 'missing' },
  { path: `${D}/dangling`, state: 'missing' },
];

test('stat: GNU and busybox print the same facts; their error lines differ, and both read as missing', () => {
  const gnu = `stat: cannot statx '${D}/missing': No such file or directory\nstat: cannot statx '${D}/a.csv/x': Not a directory\nstat: cannot statx '${D}/dangling': No such file or directory\n`;
  const busybox = `stat: can't stat '${D}/missing': No such file or directory\nstat: can't stat '${D}/a.csv/x': Not a directory\nstat: can't stat '${D}/dangling': No such file or directory\n`;
  assert.deepEqual(parseStat(paths, statOut, gnu), expected);
  assert.deepEqual(parseStat(paths, statOut, busybox), expected);
});

test('stat: permission denied is an error (unknown), never missing (dead) nor present', () => {
  const locked = [`${D}/locked/f`, `${D}/a.csv`];
  const out = `81a4 9 1733540000 ${D}/a.csv\n`;
  for (const err of [
    `stat: cannot statx '${D}/locked/f': Permission denied\n`,
    `stat: can't stat '${D}/locked/f': Permission denied\n`,
  ]) {
    assert.deepEqual(parseStat(locked, out, err)[0], {
      path: `${D}/locked/f`,
      state: 'error',
      error: 'permission denied',
    });
  }
  // The engine's own failure (the container stopped mid-check) says nothing of the path: an error too.
  const [gone] = parseStat(
    [`${D}/a.csv`],
    '',
    'Error: can only create exec sessions on running containers: container state improper\n',
  );
  assert.equal(gone!.state, 'error');
  assert.match((gone as { error: string }).error, /stat said nothing of it \(Error: can only create exec sessions/);
  // A path that is a prefix of another's is not taken for it.
  assert.equal(
    parseStat([`${D}/a`], `81a4 9 1733540000 ${D}/a.csv\n`, `stat: can't stat '${D}/a': Permission denied\n`)[0]!.state,
    'error',
  );
});

test('stat: a name with a line break is never asked, and is an error', () => {
  const [odd] = parseStat([`${D}/a\n.csv`], '', '');
  assert.deepEqual(odd, { path: `${D}/a\n.csv`, state: 'error', error: 'its name holds a line break' });
});

test('realpath: one line per operand, else null', () => {
  assert.deepEqual(parseRealpath(`${D}\n${D}/a.csv\n`, 2), [D, `${D}/a.csv`]);
  assert.equal(parseRealpath(`${D}\n`, 2), null, 'an operand vanished');
  assert.equal(parseRealpath('', 1), null);
  assert.equal(parseRealpath('relative\n', 1), null);
});

test('find: GNU and busybox list the same; a missing base is no match, permission denied fails the listing', () => {
  const listing = [D, `${D}/.hidden`, `${D}/a.csv`, `${D}/sub`].join('\0') + '\0';
  assert.deepEqual(parseFind(0, listing, '', 100), { paths: [D, `${D}/.hidden`, `${D}/a.csv`, `${D}/sub`] });
  for (const err of [
    `find: '${D}/nope': No such file or directory\n`,
    `find: ${D}/nope: No such file or directory\n`,
    `find: ‘${D}/nope’: No such file or directory\n`,
  ]) {
    assert.deepEqual(parseFind(1, '', err, 100), { paths: [] }, err);
  }
  for (const err of [`find: '${D}/locked': Permission denied\n`, `find: ${D}/locked: Permission denied\n`]) {
    const result = parseFind(1, listing, err, 100);
    assert.ok('error' in result);
    assert.match(result.error, /^find: permission denied \(find: .*locked.*\)$/);
  }
  assert.deepEqual(parseFind(0, listing, '', 3), { tooMany: 3 });
  assert.deepEqual(
    parseFind(0, `${D}/a\nb.csv\0`, '', 10),
    { paths: [`${D}/a\nb.csv`] },
    'NUL-separated: a line break stays in its name',
  );
});
