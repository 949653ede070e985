import { write } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * Copies a child's output to one of deadman's own fds, byte for byte and in order, without
 * blocking the event loop: Node writes to a pipe stdout synchronously, so a slow reader
 * (a stalled journald, a paused terminal) would freeze the supervision loop and its watchdog
 * pings. Here each chunk is written with fs.write (on libuv's thread pool), one at a time;
 * while more than `highWaterBytes` are queued the child's pipe is paused, so the child feels
 * the back-pressure instead of deadman buffering without bound.
 */
export interface Passthrough {
  /** Resolves when everything received so far has been written. */
  drained(): Promise<void>;
}

export function passThrough(source: Readable, fd: number, onChunk: (chunk: Buffer) => void, highWaterBytes = 4 * 1024 * 1024): Passthrough {
  const queue: Buffer[] = [];
  let queued = 0;
  let writing = false;
  let broken = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (queue.length === 0 && !writing) {
      for (const resolve of waiters) resolve();
      waiters = [];
    }
  };

  const pump = () => {
    if (writing) return;
    const chunk = queue.shift();
    if (!chunk) {
      settle();
      return;
    }
    writing = true;
    writeAll(fd, chunk, 0, () => {
      writing = false;
      queued -= chunk.length;
      if (queued <= highWaterBytes / 2 && source.isPaused()) source.resume();
      pump();
    }, () => {
      // The reader went away (EPIPE): keep draining the child so it is never blocked on us.
      broken = true;
      queue.length = 0;
      queued = 0;
      writing = false;
      if (source.isPaused()) source.resume();
      settle();
    });
  };

  source.on('data', (chunk: Buffer) => {
    onChunk(chunk);
    if (broken) return;
    queue.push(chunk);
    queued += chunk.length;
    if (queued > highWaterBytes) source.pause();
    pump();
  });

  return {
    drained: () => new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    }),
  };
}

function writeAll(fd: number, chunk: Buffer, offset: number, done: () => void, failed: () => void): void {
  write(fd, chunk, offset, chunk.length - offset, null, (error, written) => {
    if (error) {
      if (error.code === 'EAGAIN') {
        setTimeout(() => writeAll(fd, chunk, offset, done, failed), 5);
        return;
      }
      failed();
      return;
    }
    if (offset + written < chunk.length) writeAll(fd, chunk, offset + written, done, failed);
    else done();
  });
}
