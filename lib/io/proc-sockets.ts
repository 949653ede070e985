import { readlinkSync } from 'node:fs';
import { listeningInodes, SOCKET_TABLES } from '../core/proc-net.ts';
import type { LinuxProcess } from './proc-read.ts';
import { readOrNull } from './proc-read.ts';

/**
 * Marks the processes that hold a listening socket. The socket tables are read at most once
 * per network namespace per poll, and only when some owned process holds a socket at all: the
 * tables list every socket of the namespace, so reading them is the expensive part. Tables are
 * read through a process of that namespace (`/proc/<pid>/net/…`), so a server inside a
 * sandbox's private network namespace is recognised too.
 */
export function markListening(processes: LinuxProcess[]): void {
  const withSockets = processes.filter((p) => p.socketInodes.length > 0);
  if (withSockets.length === 0) return;
  const listeningByNamespace = new Map<string, Set<string>>();
  for (const p of withSockets) {
    const namespace = networkNamespace(p.info.pid);
    if (namespace === null) continue;
    let listening = listeningByNamespace.get(namespace);
    if (!listening) {
      listening = readListeningInodes(p.info.pid);
      listeningByNamespace.set(namespace, listening);
    }
    p.info.listening = p.socketInodes.some((inode) => listening.has(inode));
  }
}

function networkNamespace(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

function readListeningInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of SOCKET_TABLES) {
    const text = readOrNull(`/proc/${pid}/net/${table}`);
    if (text) for (const inode of listeningInodes(table, text)) inodes.add(inode);
  }
  return inodes;
}
