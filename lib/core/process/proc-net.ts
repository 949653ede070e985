/**
 * Parsers for the Linux socket tables `/proc/net/{tcp,tcp6,udp,udp6,unix}`: which socket
 * inodes are servers. A process holding one of them is persistent (a dev server, a database),
 * never "hung", however idle it looks.
 */

export type SocketTable = 'tcp' | 'tcp6' | 'udp' | 'udp6' | 'unix';

/** Cheapest first: the TCP tables take milliseconds to read even when nearly empty. */
export const SOCKET_TABLES: readonly SocketTable[] = ['unix', 'udp', 'udp6', 'tcp', 'tcp6'];

const TCP_LISTEN = '0A';
/** TCP_CLOSE: what an unconnected UDP socket reports. */
const UDP_UNCONNECTED = '07';
/** __SO_ACCEPTCON in the unix table's Flags column: listen() was called. */
const UNIX_ACCEPTING = 0x10000;

/** Every socket inode of one table's text → whether it is a server. Malformed rows are skipped. */
export function parseSocketTable(table: SocketTable, text: string): Map<string, boolean> {
  const sockets = new Map<string, boolean>();
  for (const line of text.split('\n').slice(1)) {
    const row = table === 'unix' ? unixRow(line) : inetRow(table, line);
    if (row) sockets.set(row.inode, row.listening);
  }
  return sockets;
}

interface SocketRow {
  inode: string;
  listening: boolean;
}

/**
 * `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …`. A UDP socket
 * counts as a server when it is bound to a port and not connected to a peer (remote port 0):
 * UDP has no listen state, and a connected client socket has a remote port.
 */
function inetRow(table: SocketTable, line: string): SocketRow | null {
  const fields = line.trim().split(/\s+/);
  const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
  if (!local || !remote || !state || !inode || !/^\d+$/.test(inode) || inode === '0') return null;
  if (table === 'tcp' || table === 'tcp6') return { inode, listening: state === TCP_LISTEN };
  const bound = !local.endsWith(':0000');
  const unconnected = remote.endsWith(':0000');
  return { inode, listening: state === UDP_UNCONNECTED && bound && unconnected };
}

/** `Num RefCount Protocol Flags Type St Inode Path`. */
function unixRow(line: string): SocketRow | null {
  const fields = line.trim().split(/\s+/);
  const [flags, inode] = [fields[3], fields[6]];
  if (!flags || !inode || !/^[0-9A-Fa-f]+$/.test(flags) || !/^\d+$/.test(inode)) return null;
  return { inode, listening: (parseInt(flags, 16) & UNIX_ACCEPTING) !== 0 };
}

/** The inode of an fd link such as `socket:[12345]`, or null for anything else. */
export function socketInode(link: string): string | null {
  const match = /^socket:\[(\d+)\]$/.exec(link);
  return match?.[1] ?? null;
}
