import { DatabaseSync } from 'node:sqlite';
import { chmodSync, closeSync, constants, existsSync, lstatSync, openSync, readlinkSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensurePrivateDir } from '../files/paths.ts';
import { notAFileError, ownerError, stateDirError, storeError, symlinkError } from './store-errors.ts';

/** How the store opens its file: for writing (directory made private, the file 0600) or only to read. */

/** SQLite's own files beside the database, which it opens (and creates) by name, following links. */
const SQLITE_SIBLINGS = ['', '-wal', '-shm', '-journal'];

/**
 * Refuses a database reached through a symbolic link, at its own path or at a file SQLite keeps
 * beside it, before anything opens, reads or chmods it (store-errors.ts `symlinkError`). Only the
 * files: a state directory that is a link (systemd's DynamicUser= makes /var/lib/NAME one, a home
 * may keep ~/.local on another disk) is its owner's choice, and the default places lie in
 * directories only root or the user can write (docs/secrets.md).
 */
export function refuseLinks(path: string): void {
  if (path === ':memory:') return;
  for (const file of SQLITE_SIBLINGS.map((suffix) => path + suffix)) {
    const target = linkTarget(file);
    if (target !== null) throw symlinkError(file, target, path);
  }
}

/** Where a link points; null for anything else (or nothing there, or not ours to look at: opening says why, if it matters). */
function linkTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}

export function openForWriting(path: string, busyTimeoutMs = 10_000, notes: string[] = []): DatabaseSync {
  if (path === ':memory:') return new DatabaseSync(path);
  try {
    ensurePrivateDir(dirname(path));
  } catch (error) {
    throw stateDirError(dirname(path), error);
  }
  try {
    createPrivately(path, notes);
    return new DatabaseSync(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw storeError(path, error);
  }
}

/**
 * The database holds what the work printed, redacted or not, so it is 0600 from its first byte:
 * created here with that mode (O_EXCL: never a file someone else just made, O_NOFOLLOW: never
 * through a symlink) before SQLite opens it, never chmodded after — a kill between SQLite's
 * create and a chmod left it 0644 for good. SQLite gives its -wal and -shm files the main
 * file's mode. A file already there with a looser mode (ours) is tightened, and `notes` says so.
 */
function createPrivately(path: string, notes: string[]): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  refuseOthersFiles(path);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
    if ((mode & 0o077) === 0) continue;
    chmodSync(file, mode & 0o700);
    notes.push(
      `${file} was readable by others (mode ${mode.toString(8).padStart(4, '0')}): made it ${(mode & 0o700).toString(8).padStart(4, '0')}, as deadman creates its files`,
    );
  }
}

/**
 * A database (or a file SQLite keeps beside it) that another user owns is not written: that
 * user could read every record, however tight the mode — made in a shared state directory
 * before deadman's first start, it would be adopted and chmodded but stay theirs. Nor is
 * anything but a regular file. Only for writing: a reader (root reading a user's runs) leaves
 * nothing in it.
 */
function refuseOthersFiles(path: string): void {
  const uid = process.geteuid?.();
  for (const file of SQLITE_SIBLINGS.map((suffix) => path + suffix)) {
    if (!existsSync(file)) continue;
    const stat = statSync(file);
    // A device or a pipe given as --database (/dev/null) is no database: root would chmod the device itself.
    if (!stat.isFile()) throw notAFileError(file, path);
    if (uid !== undefined && stat.uid !== uid) throw ownerError(file, stat.uid, uid, path);
  }
}

/**
 * Reading never writes: not the file, its mode, nor its directory. A WAL database on a
 * read-only file system has no shared-memory file to open, so SQLite is told the file cannot
 * change under it (`immutable=1`), which needs none.
 */
export function openReadOnly(path: string, busyTimeoutMs = 10_000): DatabaseSync {
  try {
    const db = new DatabaseSync(path, { readOnly: true, timeout: busyTimeoutMs });
    db.prepare('PRAGMA user_version').get();
    return db;
  } catch (first) {
    try {
      const url = pathToFileURL(path);
      url.searchParams.set('immutable', '1');
      return new DatabaseSync(url, { readOnly: true });
    } catch {
      throw storeError(path, first);
    }
  }
}
