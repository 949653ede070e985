/**
 * Parsers for the Linux socket tables `/proc/net/{tcp,tcp6,udp,udp6,unix}`: which socket
 * inodes are servers. A process holding one of them is persistent (a dev server, a database),
 * never "hung", however idle it looks.
 */

export type SocketTable = 'tcp' | 'tcp6' | 'udp' | 'udp6' | 'unix';

export const SOCKET_TABLES: readonly SocketTable[] = ['tcp', 'tcp6', 'udp', 'udp6', 'unix'];

const TCP_LISTEN = '0A';
/** TCP_CLOSE: what an unconnected UDP socket reports. */
const UDP_UNCONNECTED = '07';
/** __SO_ACCEPTCON in the unix table's Flags column: listen() was called. */
const UNIX_ACCEPTING = 0x10000;

/** Inodes of listening sockets in one table's text. Malformed rows are skipped. */
export function listeningInodes(table: SocketTable, text: string): string[] {
  const inodes: string[] = [];
  for (const line of text.split('\n').slice(1)) {
    const inode = table === 'unix' ? unixListeningInode(line) : inetListeningInode(table, line);
    if (inode) inodes.push(inode);
  }
  return inodes;
}

/**
 * `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …`. A UDP socket
 * counts as a server when it is bound to a port and not connected to a peer (remote port 0):
 * UDP has no listen state, and a connected client socket has a remote port.
 */
function inetListeningInode(table: SocketTable, line: string): string | null {
  const fields = line.trim().split(/\s+/);
  const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
  if (!local || !remote || !state || !inode || !/^\d+$/.test(inode) || inode === '0') return null;
  if (table === 'tcp' || table === 'tcp6') return state === TCP_LISTEN ? inode : null;
  const bound = !local.endsWith(':0000');
  const unconnected = remote.endsWith(':0000');
  return state === UDP_UNCONNECTED && bound && unconnected ? inode : null;
}

/** `Num RefCount Protocol Flags Type St Inode Path`. */
function unixListeningInode(line: string): string | null {
  const fields = line.trim().split(/\s+/);
  const [flags, inode] = [fields[3], fields[6]];
  if (!flags || !inode || !/^[0-9A-Fa-f]+$/.test(flags) || !/^\d+$/.test(inode)) return null;
  return (parseInt(flags, 16) & UNIX_ACCEPTING) !== 0 ? inode : null;
}

/** The inode of an fd link such as `socket:[12345]`, or null for anything else. */
export function socketInode(link: string): string | null {
  const match = /^socket:\[(\d+)\]$/.exec(link);
  return match?.[1] ?? null;
}
