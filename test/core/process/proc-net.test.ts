import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSocketTable, socketInode, type SocketTable } from '../../../lib/core/process/proc-net.ts';

const listeningInodes = (table: SocketTable, text: string) =>
  [...parseSocketTable(table, text)].filter(([, listening]) => listening).map(([inode]) => inode);

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1161 1 000000005da4c674 100 0 0 10 0
   1: 0100007F:847F 0100007F:C8BA 01 00000000:00000000 03:0000149F 00000000     0        0 2222 3 000000001ffe1101
   2: 0100007F:847F 0100007F:C8BA 06 00000000:00000000 03:0000149F 00000000     0        0 0 3 000000001ffe1101
`;
const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  100: 00000000:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 3333 2 0000000000000000 0
  101: 0100007F:D431 08080808:0035 01 00000000:00000000 00:00000000 00000000     0        0 4444 2 0000000000000000 0
`;
const UNIX = `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 5555 /run/app.sock
0000000000000000: 00000003 00000000 00000000 0001 03 6666
0000000000000000: 00000002 00000000 00010000 0001 01 7777 @abstract
`;

test('finds listening TCP, bound UDP and accepting unix sockets only', () => {
  assert.deepEqual(listeningInodes('tcp', TCP), ['1161']);
  assert.deepEqual(listeningInodes('tcp6', TCP), ['1161']);
  assert.deepEqual(listeningInodes('udp', UDP), ['3333']);
  assert.deepEqual(listeningInodes('unix', UNIX), ['5555', '7777']);
});

test('lists every socket, servers or not, so a new inode is looked up once', () => {
  assert.deepEqual(
    [...parseSocketTable('tcp', TCP)],
    [
      ['1161', true],
      ['2222', false],
    ],
  );
  assert.deepEqual(
    [...parseSocketTable('unix', UNIX)].map(([inode]) => inode),
    ['5555', '6666', '7777'],
  );
});

test('skips garbage, truncated and huge lines', () => {
  const truncated = TCP.slice(0, TCP.indexOf('1161') - 5);
  assert.deepEqual(listeningInodes('tcp', truncated), []);
  assert.deepEqual(listeningInodes('tcp', 'header\n\u0000\u0001garbage\n: : :\n'), []);
  assert.deepEqual(listeningInodes('unix', `header\n${'x'.repeat(2_000_000)}\n0: 1 0 zz 1 01 12\n`), []);
  assert.deepEqual(listeningInodes('udp', ''), []);
});

test('reads socket inodes from fd links', () => {
  assert.equal(socketInode('socket:[12345]'), '12345');
  assert.equal(socketInode('pipe:[12345]'), null);
  assert.equal(socketInode('/dev/null'), null);
  assert.equal(socketInode('socket:[]'), null);
});
