import { join } from 'node:path';
import { z } from 'zod';
import type { AlertLog } from '../../core/alerts/alert-log-rules.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { readJsonFile } from '../files/quiet-reads.ts';

/**
 * What went out for one run name (`<state dir>/alerts/<name>.json`: key → when, from which
 * invocation; core/alerts/alert-log-rules.ts), for `min_interval` and so `deadman notify` does
 * not repeat what the run sent. Bookkeeping only: an unreadable file means "nothing sent yet";
 * an unwritable one is the caller's to report, and the alert still goes out.
 */
const alertLogSchema = z.record(
  z.string(),
  z.strictObject({ at: z.number().finite(), invocation: z.string().nullable() }),
);

export function alertLogPath(stateDir: string, name: string): string {
  return join(stateDir, 'alerts', `${name}.json`);
}

export function readAlertLog(path: string): AlertLog {
  const parsed = alertLogSchema.safeParse(readJsonFile(path));
  return parsed.success ? parsed.data : {};
}

/** Throws what the file system said; rewritten at every alert, so a power cut loses at most the last one (which is then sent again). */
export function writeAlertLog(path: string, log: AlertLog): void {
  ensurePrivateDir(join(path, '..'));
  writeFileAtomically(path, `${JSON.stringify(log)}\n`, 0o600, { durable: false });
}
