import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../atomic-write.ts';

/**
 * When each alert last went out (`<state dir>/alerts-sent.json`: `name/event` → wall-clock ms),
 * for `min_interval`. Bookkeeping only: an unreadable file means "nothing sent yet", an
 * unwritable one is reported by the caller and the alert still goes out.
 */
const alertLogSchema = z.record(z.string(), z.number().finite());

export function alertLogPath(stateDir: string): string {
  return join(stateDir, 'alerts-sent.json');
}

export function readAlertLog(path: string): Record<string, number> {
  try {
    const parsed = alertLogSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function writeAlertLog(path: string, log: Record<string, number>): void {
  writeFileAtomically(path, `${JSON.stringify(log)}\n`, 0o600);
}
