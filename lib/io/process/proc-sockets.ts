import { readlinkSync } from 'node:fs';
import { parseSocketTable, SOCKET_TABLES } from '../../core/process/proc-net.ts';
import type { LinuxProcess } from './proc-read.ts';
import { readOrNull } from '../files/quiet-reads.ts';

/**
 * Marks the owned processes that hold a listening socket. The socket tables list every socket
 * of a network namespace and /proc/net/tcp alone takes milliseconds to read, while nearly every
 * process holds sockets (Node gives its children socketpairs as stdio pipes). So a listening
 * socket is remembered for REFRESH_MS, but a "not listening" answer only until the next poll
 * in which the process was scheduled: a server binds first and listens a second later, and
 * taking it for a hung process then is the worse mistake (one that did not run cannot have
 * called listen()). Lookups go cheapest table first and only until every inode asked about is
 * found. Tables are read through a process of the right namespace (`/proc/<pid>/net/…`), so a
 * server in a sandbox's private network namespace counts too.
 */
const REFRESH_MS = 60_000;

export class ListeningSockets {
  #listening = new Map<string, boolean>();
  #refreshedAt = -Infinity;

  constructor(private readonly monotonic: () => number) {}

  mark(processes: LinuxProcess[]): void {
    const withSockets = processes.filter((p) => p.socketInodes.length > 0);
    const now = this.monotonic();
    const refresh = now - this.#refreshedAt >= REFRESH_MS;
    const unknown = withSockets.filter((p) => refresh || p.socketInodes.some((inode) => !this.#settled(inode, p.ran)));
    if (unknown.length > 0) this.#lookUp(unknown, refresh);
    if (refresh) this.#refreshedAt = now;
    for (const p of withSockets) p.info.listening = p.socketInodes.some((inode) => this.#listening.get(inode) === true);
  }

  /**
   * An answer that needs no lookup: listening (kept REFRESH_MS), or not listening from a
   * process that was not scheduled since (it cannot have called listen() meanwhile).
   */
  #settled(inode: string, ran: boolean): boolean {
    const listening = this.#listening.get(inode);
    return listening === true || (listening === false && !ran);
  }

  #lookUp(processes: LinuxProcess[], refresh: boolean): void {
    const byNamespace = new Map<string, { reader: number; inodes: Set<string> }>();
    for (const p of processes) {
      const namespace = networkNamespace(p.info.pid);
      if (namespace === null) continue;
      const group = byNamespace.get(namespace) ?? { reader: p.info.pid, inodes: new Set<string>() };
      for (const inode of p.socketInodes) if (refresh || this.#listening.get(inode) !== true) group.inodes.add(inode);
      byNamespace.set(namespace, group);
    }
    if (refresh) this.#listening.clear();
    for (const { reader, inodes } of byNamespace.values()) {
      for (const table of SOCKET_TABLES) {
        if (inodes.size === 0) break;
        const text = readOrNull(`/proc/${reader}/net/${table}`);
        if (!text) continue;
        for (const [inode, listening] of parseSocketTable(table, text)) {
          if (inodes.delete(inode)) this.#listening.set(inode, listening);
        }
      }
      // Not in any table (closed meanwhile, or a family we do not read): not a server.
      for (const inode of inodes) this.#listening.set(inode, false);
    }
  }
}

function networkNamespace(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}
