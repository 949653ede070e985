import { setTimeout as delay } from 'node:timers/promises';

export interface PollOptions {
  timeoutMs: number;
  everyMs: number;
  /** The clock the deadline is kept on: the caller's (tests move their own). */
  monotonic: () => number;
  /** Ends the wait early, as a timeout does. */
  abort?: AbortSignal | undefined;
}

/**
 * Calls `check` every `everyMs` until it returns a truthy value, which is returned; null once
 * `timeoutMs` passed or `abort` fired. The last wait is cut to the deadline, so the last check
 * falls on it rather than up to `everyMs` after.
 */
export async function pollUntil<T>(check: () => T | Promise<T>, options: PollOptions): Promise<NonNullable<T> | null> {
  const { monotonic } = options;
  const deadline = monotonic() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    const left = deadline - monotonic();
    if (left <= 0 || options.abort?.aborted) return null;
    await delay(Math.min(options.everyMs, Math.max(1, left)), undefined, { signal: options.abort }).catch(
      () => undefined,
    );
  }
}
