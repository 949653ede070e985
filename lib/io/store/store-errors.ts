import { closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { DeadmanError, ExitCode } from '../../exit-codes.ts';

/**
 * Why a database cannot be used, in the cases that call for different answers: a damaged
 * SQLite file (moved aside by a writer and started afresh), a file that is not SQLite at all
 * (never touched: it may be anything), a symbolic link (never followed: it may lead anywhere;
 * readers say so rather than show less) or a file another user owns (never written: the records
 * would reach that user), a lock another writer holds (recording drops and counts
 * until it is free, trying again soon), and everything else (read-only, full, a directory that
 * cannot be created), which recording waits out.
 */

export type StoreProblem = 'corrupt' | 'foreign' | 'link' | 'owner' | 'locked' | 'unavailable';

export class StoreError extends DeadmanError {
  readonly problem: StoreProblem;
  constructor(message: string, problem: StoreProblem, exitCode: number = ExitCode.IO_ERROR) {
    super(message, exitCode);
    this.problem = problem;
  }
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;

/** A non-empty file that does not start like SQLite (a truncated header still counts as SQLite). */
export function isForeignFile(path: string): boolean {
  if (path === ':memory:' || !existsSync(path) || statSync(path).size === 0) return false;
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return !SQLITE_MAGIC.startsWith(header.subarray(0, read).toString('latin1'));
}

/** Turns whatever SQLite or the file system threw into a StoreError with one readable line. */
export function storeError(path: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const errcode = (error as { errcode?: number }).errcode;
  const why = (error as Error).message;
  if (errcode !== undefined && ((errcode & 0xff) === SQLITE_CORRUPT || (errcode & 0xff) === SQLITE_NOTADB)) {
    return new StoreError(`${path}: database is damaged (${why})`, 'corrupt');
  }
  if (errcode !== undefined && ((errcode & 0xff) === SQLITE_BUSY || (errcode & 0xff) === SQLITE_LOCKED)) {
    return new StoreError(`${path}: database is locked by another writer (${why})`, 'locked');
  }
  if (errcode !== undefined && (errcode & 0xff) === SQLITE_FULL)
    return new StoreError(`${path}: the file system is full (${why})`, 'unavailable');
  return new StoreError(`${path}: database cannot be used (${why})`, 'unavailable');
}

export function foreignFileError(path: string): StoreError {
  return new StoreError(
    `${path}: not an SQLite database; move it aside or pass --database with another path (the file was not changed)`,
    'foreign',
  );
}

/**
 * A symbolic link where the database or one of SQLite's files beside it (-wal, -shm, -journal)
 * belongs: followed, a link planted there would make deadman (root, in a system unit) write
 * wherever it points. An operator who keeps the database elsewhere passes that path.
 */
export function symlinkError(link: string, target: string, database: string): StoreError {
  const fix =
    link === database ? 'pass the real path with --database' : 'remove the link (SQLite makes that file itself)';
  return new StoreError(
    `${link}: a symbolic link (to ${target}); deadman opens no database through one, which could make it write elsewhere: ${fix} (nothing was opened)`,
    'link',
  );
}

/** A file of the database owned by another user (store-open.ts `refuseOthersFiles`): never written, never chmodded. */
export function notAFileError(file: string, database: string): StoreError {
  const fix =
    file === database ? 'pass --database with the path of a file' : 'remove it (SQLite makes that file itself)';
  return new StoreError(
    `${file}: not a regular file (a device, a pipe or a directory); deadman keeps its records only in a file of its own: ${fix} (nothing was written, its mode unchanged)`,
    'foreign',
  );
}

export function ownerError(file: string, owner: number, uid: number, database: string): StoreError {
  const fix =
    file === database
      ? 'move it aside or pass --database with a path of your own'
      : 'remove it (SQLite makes that file itself)';
  return new StoreError(
    `${file}: owned by uid ${owner}, not by this user (uid ${uid}), who could read every record written to it; deadman writes no database another user owns: ${fix} (nothing was written)`,
    'owner',
  );
}

/** The state directory cannot be made: nothing that must write there can work until someone fixes it. */
export function stateDirError(dir: string, error: unknown): StoreError {
  return new StoreError(
    `cannot create or write the state directory ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); create it writable for this user, or set state_dir / --database to a writable place`,
    'unavailable',
    ExitCode.CANT_CREATE,
  );
}

/**
 * Renames a damaged database (and its WAL and shared-memory files, which belong to it) to
 * `<path>.corrupt-<time>`; returns the new name. Nothing is deleted: a person may want it.
 */
export function moveAside(path: string, wallMs: number): string {
  const aside = `${path}.corrupt-${new Date(wallMs).toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
  return aside;
}
