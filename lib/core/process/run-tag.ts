/**
 * The run tag: one value per `deadman run`, put into the child's environment before it starts
 * and written into the revive marker. Outside a cgroup it is how deadman proves a process that
 * left the PID chain (setsid, double fork) is still the run's own, and how a reviver finds an
 * agent of a session that is still alive. The random part is passed in: the core does no I/O.
 */
export const RUN_TAG_ENV = 'DEADMAN_RUN_TAG';

const RUN_TAG_PATTERN = /^[0-9a-f]{32}$/;

/** `randomHex` must be 32 lowercase hex digits (16 random bytes). */
export function makeRunTag(randomHex: string): string {
  if (!RUN_TAG_PATTERN.test(randomHex))
    throw new Error(`run tag must be 32 hex digits, got ${JSON.stringify(randomHex)}`);
  return randomHex;
}
