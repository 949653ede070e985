import { join } from 'node:path';
import type { HealthRecord } from '../core/status/health.ts';
import { writeFileAtomically } from './atomic-write.ts';
import { ensurePrivateDir } from './paths.ts';

/**
 * `<state dir>/health/<name>.json`, written atomically; see core/status/health.ts. Only types
 * come from there: the run path loads no zod (`deadman health` parses with it).
 */
export function healthFilePath(stateDir: string, name: string): string {
  return join(stateDir, 'health', `${name}.json`);
}

/**
 * Refreshes the file at most once per `intervalMs`, and only when `healthy`. A write that fails
 * is reported once through `onError` and retried at the next refresh: health is bookkeeping,
 * it never stops the run.
 */
export function healthRefresher(path: string, base: Omit<HealthRecord, 'updated_at' | 'status'>, onError: (message: string) => void) {
  let lastWrite = -Infinity;
  let failing = false;
  return (healthy: boolean, status: string, nowMs: number, monotonicMs: number): void => {
    if (!healthy || monotonicMs - lastWrite < base.interval_ms) return;
    try {
      ensurePrivateDir(join(path, '..'));
      // Rewritten every interval_ms: what a power cut may lose, the next refresh restores.
      writeFileAtomically(path, `${JSON.stringify({ ...base, updated_at: nowMs, status })}\n`, 0o644, { durable: false });
      lastWrite = monotonicMs;
      failing = false;
    } catch (error) {
      if (!failing) onError(`cannot refresh the health file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); deadman health will report unhealthy`);
      failing = true;
    }
  };
}
