import { existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DeadmanError, ExitCode } from '../../exit-codes.ts';
import { writeSyncAndClose } from '../files/atomic-write.ts';

/**
 * Writes a unit file or plist where the service manager reads it. Without `replace` an
 * existing file is never touched (exclusive create); with it the new text goes to a temp file
 * that is renamed over the old one, so the manager never reads half a file.
 */
export function installFile(
  path: string,
  text: string,
  options: { replace: boolean; mode: number },
): 'created' | 'replaced' {
  mkdirSync(dirname(path), { recursive: true });
  if (!options.replace) {
    writeWhole(path, text, 'wx', options.mode, () => {
      throw new DeadmanError(
        `${path} already exists; compare it with the output of deadman unit, or pass --force to replace it`,
        ExitCode.USAGE,
      );
    });
    return 'created';
  }
  const existed = existsSync(path);
  const temp = join(dirname(path), `.${process.pid}.deadman-install.tmp`);
  try {
    writeWhole(temp, text, 'w', options.mode, () => {});
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
  return existed ? 'replaced' : 'created';
}

function writeWhole(path: string, text: string, flags: 'w' | 'wx', mode: number, onExists: () => void): void {
  let fd: number;
  try {
    fd = openSync(path, flags, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') onExists();
    if (code === 'EACCES' || code === 'EPERM')
      throw new DeadmanError(
        `cannot write ${path} (permission denied); run as root for a system unit, or use --user`,
        ExitCode.USAGE,
      );
    throw error;
  }
  writeSyncAndClose(fd, text);
}
