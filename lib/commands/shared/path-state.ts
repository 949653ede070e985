import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { userInfo } from 'node:os';
import { DeadmanError, ExitCode } from '../../exit-codes.ts';

// Apart from open-existing-store.ts: `deadman health` reads its health file with them and
// opens the database only for a run whose deadman is gone (issue 36.1).

/**
 * Whether the file is there; a path this user may not look into is exit 74, naming the place and
 * the user. A link is there even when it leads nowhere: the store refuses it (io/store/store-open.ts).
 */
export function pathState(path: string): 'missing' | 'present' {
  try {
    lstatSync(path);
    return 'present';
  } catch (error) {
    if (isDenied(error)) throw permissionDenied(path);
    return 'missing';
  }
}

export function isDenied(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM';
}

/** The first directory on the way that this user cannot enter, else the file itself. */
export function permissionDenied(path: string): DeadmanError {
  const chain: string[] = [];
  for (let at = dirname(path); !chain.includes(at); at = dirname(at)) chain.unshift(at);
  const blocked = chain.find((dir) => !canAccess(dir, constants.X_OK)) ?? path;
  const { username, uid } = userInfo();
  return new DeadmanError(
    `cannot read ${blocked}: permission denied for ${username} (uid ${uid}); run as its owner (or root), or give --state-dir / --database`,
    ExitCode.IO_ERROR,
  );
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
