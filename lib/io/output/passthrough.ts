import { writev } from 'node:fs';
import type { Readable } from 'node:stream';
import { holdPaused } from './pause-holds.ts';

/**
 * Copies a child's output to one of deadman's own fds, byte for byte and in order, without
 * blocking the event loop: Node writes to a pipe stdout synchronously, so a slow reader
 * (a stalled journald, a paused terminal) would freeze the supervision loop and its watchdog
 * pings. Here queued chunks go out with one fs.writev (on libuv's thread pool) at a time:
 * everything that arrived while the previous write was in flight leaves in a single syscall,
 * which keeps a fast producer near pipe speed. While more than `highWaterBytes` wait, the
 * child's pipe is paused, so the child feels the back-pressure instead of deadman buffering
 * without bound. When the fd is a pipe or socket, Node has made it non-blocking (process.stdout
 * owns it), so a reader that is merely behind shows up as EAGAIN rather than a blocked write.
 */
/**
 * `onChunk` sees each chunk after its write was started, so parsing it overlaps the write on the
 * thread pool; it must not keep the chunk (it is freed once written). `onUndeliverable` hears
 * once when the fd stopped taking output (the reader went away, the disk is full): the child is
 * still drained, so it never blocks or dies of SIGPIPE because of deadman's reader. What it
 * returns is the loop's Passthrough port (supervise/ports.ts).
 */
export function passThrough(
  source: Readable,
  fd: number,
  onChunk: (chunk: Buffer) => void,
  onUndeliverable: (error: NodeJS.ErrnoException) => void,
  highWaterBytes = 4 * 1024 * 1024,
) {
  let queue: Buffer[] = [];
  let queued = 0;
  let writing = false;
  let broken = false;
  const { settle, drained } = drainSignal(() => queue.length === 0 && !writing);

  const pump = () => {
    if (writing || broken) return;
    if (queue.length === 0) return settle();
    const batch = queue;
    queue = [];
    writing = true;
    writeAll(
      fd,
      batch,
      (written) => {
        writing = false;
        queued -= written;
        for (const chunk of batch) release(chunk);
        if (queued <= highWaterBytes / 2) holdPaused(source, 'passthrough', false);
        pump();
      },
      (error) => {
        // Keep draining the child so it is never blocked on us; the bytes have nowhere to go.
        broken = true;
        onUndeliverable(error);
        writing = false;
        queue = [];
        queued = 0;
        holdPaused(source, 'passthrough', false);
        settle();
      },
    );
  };

  source.on('data', (chunk: Buffer) => {
    if (!broken) {
      queue.push(chunk);
      queued += chunk.length;
      if (queued > highWaterBytes) holdPaused(source, 'passthrough', true);
      pump();
    }
    // Safe after pump(): the write's completion (which frees the chunk) runs on a later tick.
    onChunk(chunk);
    if (broken) release(chunk);
  });

  return {
    backlogged: () => writing || queue.length > 0,
    drained,
  };
}

/** `drained()` resolves once `idle()` holds: at once, or at the first `settle()` that finds it so. */
function drainSignal(idle: () => boolean) {
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (idle()) {
      for (const resolve of waiters) resolve();
      waiters = [];
    }
  };
  const drained = () =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    });
  return { settle, drained };
}

/**
 * EAGAIN retries: a reader that keeps up frees room within microseconds, so the first retries go
 * at once (a fixed 5 ms wait held a 1.5 GB/s pipe to about 200 MB/s); after those the wait grows
 * to 5 ms, so a stalled reader costs a couple of hundred syscalls a second and no more.
 */
const IMMEDIATE_RETRIES = 16;
const MAX_RETRY_MS = 5;

/** Writes every buffer, continuing after partial writes; reports the byte count when done. */
function writeAll(
  fd: number,
  buffers: Buffer[],
  done: (written: number) => void,
  failed: (error: NodeJS.ErrnoException) => void,
  total = 0,
  busy = 0,
): void {
  writev(fd, buffers, (error, written) => {
    if (error) {
      const retry = () => writeAll(fd, buffers, done, failed, total, busy + 1);
      if (error.code !== 'EAGAIN') failed(error);
      else if (busy < IMMEDIATE_RETRIES) setImmediate(retry);
      else setTimeout(retry, Math.min(MAX_RETRY_MS, 2 ** (busy - IMMEDIATE_RETRIES)));
      return;
    }
    const rest = dropWritten(buffers, written);
    if (rest.length > 0) writeAll(fd, rest, done, failed, total + written);
    else done(total + written);
  });
}

function dropWritten(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  let index = 0;
  while (index < buffers.length && skip >= buffers[index]!.length) skip -= buffers[index++]!.length;
  const rest = buffers.slice(index);
  if (rest.length > 0 && skip > 0) rest[0] = rest[0]!.subarray(skip);
  return rest;
}

/**
 * Frees a chunk's memory now instead of at V8's next collection: the pipe hands us a fresh
 * 64 KiB buffer per read, and V8 lets about 64 MiB of them pile up before it collects, which
 * would make deadman's RSS grow with the child's throughput. Safe only because no one keeps a
 * chunk after `onChunk` returns (consumers copy what they keep); buffers that share their
 * memory with others, or cannot be detached, are left to the collector.
 */
export function release(chunk: Uint8Array): void {
  if (chunk.byteOffset !== 0 || chunk.buffer.byteLength !== chunk.length) return;
  try {
    (chunk.buffer as ArrayBuffer).transfer(0);
  } catch {
    // not detachable: the collector will have it
  }
}
