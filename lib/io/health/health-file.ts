import { join } from 'node:path';
import type { HealthRecord } from '../../core/status/health.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { ensurePrivateDir } from '../files/paths.ts';

/**
 * `<state dir>/health/<name>.json`, written atomically; see core/status/health.ts. Only types
 * come from there: the run path loads no zod (`deadman health` parses with it).
 */
export function healthFilePath(stateDir: string, name: string): string {
  return join(stateDir, 'health', `${name}.json`);
}

/**
 * Writes the file at once when the run's health changes, and refreshes it at most once per
 * `intervalMs` while healthy (an unhealthy run is said once; the file's age then says nothing).
 * A write that fails is reported once through `onError` and retried at the next call: health
 * is bookkeeping, it never stops the run.
 */
export function healthRefresher(
  path: string,
  base: Omit<HealthRecord, 'updated_at' | 'status' | 'healthy'>,
  onError: (message: string) => void,
) {
  let lastWrite = -Infinity;
  let written: boolean | null = null;
  let failing = false;
  return (healthy: boolean, status: string, nowMs: number, monotonicMs: number): void => {
    if (healthy === written && (!healthy || monotonicMs - lastWrite < base.interval_ms)) return;
    try {
      ensurePrivateDir(join(path, '..'));
      // Rewritten every interval_ms: what a power cut may lose, the next refresh restores.
      writeFileAtomically(path, `${JSON.stringify({ ...base, healthy, updated_at: nowMs, status })}\n`, 0o644, {
        durable: false,
      });
      lastWrite = monotonicMs;
      written = healthy;
      failing = false;
    } catch (error) {
      if (!failing)
        onError(
          `cannot refresh the health file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); deadman health will report unhealthy`,
        );
      failing = true;
    }
  };
}
