import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a whole file so that a reader never sees half of it, even across a crash: a temp file
 * in the same directory, fsync, rename over the old one, fsync the directory. The temp name
 * starts with `.<name>.` and ends in `.tmp`, so leftovers of a SIGKILL are recognisable.
 * `durable: false` keeps the rename (readers still never see half a file) but skips both
 * fsyncs, for a file rewritten every few seconds that a power cut may leave old or empty until
 * the next write: two fsyncs a refresh would block the event loop of every unit on a busy disk.
 */
export function writeFileAtomically(path: string, text: string, mode: number, { durable = true } = {}): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomHex8()}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, text);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (!durable) return;
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * The temp name's random part (8 hex digits: revive/markers.ts recognises leftovers by them). It
 * only has to differ from another writer's, and `wx` refuses a clash: Math.random, not crypto's
 * randomBytes, which took a quarter of the CPU of an idle run's health refresh.
 */
function randomHex8(): string {
  return Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');
}

/** Writes `data` to an open file, flushes it to the disk and closes the file, whatever fails. */
export function writeSyncAndClose(fd: number, data: string | Uint8Array): void {
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
