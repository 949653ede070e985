import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeSyncAndClose } from './atomic-write.ts';
import { hmacSha256, sameBytes } from './hmac-sha256.ts';

/**
 * A directory's secret: a 32-byte key file, 0600 and deadman's uid's, created on first write.
 * Files deadman later acts on (revive markers, cached configs) carry an HMAC-SHA256 made with
 * it, so one edited or forged by anyone who cannot read the key is refused. The caller checks
 * that the directory itself is deadman's and not writable by others.
 */

const KEY_BYTES = 32;
const euid = () => process.geteuid?.() ?? -1;

/** Opens a file without following a symlink; refuses one of another uid. */
export function openOwnFile(path: string): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  const stat = fstatSync(fd);
  if (!stat.isFile() || stat.uid !== euid()) {
    closeSync(fd);
    // Not a file is damage (EISDIR reads as "cannot be read"); another uid's file is a forgery to refuse.
    if (!stat.isFile()) throw Object.assign(new Error('is not a regular file'), { code: 'EISDIR' });
    throw Object.assign(new Error(`belongs to uid ${stat.uid}, not to deadman's uid ${euid()}`), {
      code: 'EUNTRUSTED',
    });
  }
  return { fd, size: stat.size };
}

/**
 * The key in `path`; null when a reader finds none (then nothing signed with it can be
 * authentic). Throws (EUNTRUSTED) when the key file is not private.
 */
function readKey(path: string, create: boolean): Buffer | null {
  try {
    const { fd, size } = openOwnFile(path);
    try {
      const mode = fstatSync(fd).mode & 0o777;
      if ((mode & 0o077) !== 0 || size !== KEY_BYTES)
        throw Object.assign(new Error(`key ${path} is not a private ${KEY_BYTES}-byte file`), { code: 'EUNTRUSTED' });
      const key = Buffer.alloc(KEY_BYTES);
      readSync(fd, key, 0, KEY_BYTES, 0);
      return key;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return create ? createKey(path) : null;
}

function createKey(path: string): Buffer {
  const key = randomBytes(KEY_BYTES);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    // Another deadman created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKey(path, false)!;
    throw error;
  }
  writeSyncAndClose(fd, key);
  return key;
}

// Not node:crypto's HMAC: loading node:crypto would cost every reader of a marker more than the rest of its read (hmac-sha256.ts).
const hmac = (key: Buffer, macInput: string) => Buffer.from(hmacSha256(key, Buffer.from(macInput)));

/** The MAC of `macInput` under `<dir>/<keyFile>` (the key is created on first use). */
export function directoryMac(dir: string, keyFile: string, macInput: string): string {
  return hmac(readKey(join(dir, keyFile), true)!, macInput).toString('hex');
}

/** Why `mac` is not the MAC of `macInput` under `<dir>/<keyFile>` (one phrase), or null when it is. */
export function directoryMacProblem(dir: string, keyFile: string, macInput: string, mac: unknown): string | null {
  const path = join(dir, keyFile);
  let key: Buffer | null;
  try {
    key = readKey(path, false);
  } catch (error) {
    return `cannot be checked: ${(error as Error).message}`;
  }
  if (key === null) return `cannot be checked: ${path} is missing`;
  const authentic =
    typeof mac === 'string' && /^[0-9a-f]{64}$/.test(mac) && sameBytes(hmac(key, macInput), Buffer.from(mac, 'hex'));
  return authentic ? null : `was not written by deadman or was edited since (its MAC does not match the key ${path})`;
}
