import { join } from 'node:path';
import { z } from 'zod';
import type { AlertedStates } from '../../core/evidence/job-state-alerts.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { readJsonFile } from '../files/quiet-reads.ts';

/**
 * The state `deadman check` last alerted per job (`<state dir>/check/alerted.json`), so each
 * change goes out once (core/alerts/job-state-alerts.ts). A file that cannot be read means
 * "nothing alerted": the worst case is one repeated alert, never a missed one.
 */
const alertedStatesSchema = z.record(
  z.string(),
  z.strictObject({ state: z.enum(['alive', 'dead', 'unknown']), at: z.number().finite() }),
);

export function alertedStatesPath(stateDir: string): string {
  return join(stateDir, 'check', 'alerted.json');
}

export function readAlertedStates(path: string): AlertedStates {
  const parsed = alertedStatesSchema.safeParse(readJsonFile(path));
  return parsed.success ? parsed.data : {};
}

/** Throws what the file system said. */
export function writeAlertedStates(path: string, states: AlertedStates): void {
  ensurePrivateDir(join(path, '..'));
  writeFileAtomically(path, `${JSON.stringify(states)}\n`, 0o600, { durable: false });
}
