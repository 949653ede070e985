import * as z from 'zod/mini';
import { parseJsonOrUndefined } from '../json/parse-json.ts';

/**
 * The health file behind `deadman health`, for probes that only run a command (Kubernetes
 * livenessProbe.exec, Docker HEALTHCHECK, Nomad script checks). The running deadman rewrites it
 * at once when the run turns unhealthy (a stall) and every interval while it is healthy, so a
 * wedged deadman leaves it to go stale; the deadman's death is found live, from its pid and
 * start time in the file (core/status/run-presence.ts does the same for the database). Pure:
 * parsing and the verdict. The schema is zod/mini's: a probe's start loads its ~16 KB of zod,
 * not the ~200 KB of zod's chained API (issue 36.1).
 */
const healthRecordSchema = z.object({
  name: z.string(),
  pid: z.int(),
  /** With the pid, the deadman's identity; missing from files of an older deadman. */
  pid_start_time: z.optional(z.nullable(z.int())),
  /** Missing from files of an older deadman, which wrote only while healthy. */
  healthy: z.optional(z.boolean()),
  /** Wall-clock ms of the last refresh. */
  updated_at: z.number(),
  /** How often the running deadman refreshes it, in ms. */
  interval_ms: z.number().check(z.positive()),
  status: z.string(),
});

export type HealthRecord = z.output<typeof healthRecordSchema>;

/** A refresh missed three times over means deadman's own loop is wedged (a stall or its death are said at once). */
export const STALE_AFTER_INTERVALS = 3;

/** `unknown`: no run of this name ever wrote a health file here (a mistyped --name, another state directory). */
export type HealthVerdict = { healthy: boolean; known: boolean; line: string };

export function judgeHealth(
  record: HealthRecord | null,
  nowMs: number,
  name: string,
  ownerAlive: boolean,
): HealthVerdict {
  if (!record)
    return {
      healthy: false,
      known: false,
      line: `${name}: no such run: no run of this name wrote a health file in this state directory (check --name, and state_dir or $STATE_DIRECTORY)`,
    };
  const ageMs = Math.max(0, nowMs - record.updated_at);
  const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;
  if (!ownerAlive)
    return {
      healthy: false,
      known: true,
      line: `${name}: unhealthy: deadman (pid ${record.pid}) is gone; last status: ${record.status}`,
    };
  if (record.healthy === false) return { healthy: false, known: true, line: `${name}: unhealthy: ${record.status}` };
  if (ageMs > STALE_AFTER_INTERVALS * record.interval_ms) {
    return {
      healthy: false,
      known: true,
      line: `${name}: unhealthy: last healthy ${seconds(ageMs)} ago (refreshed every ${seconds(record.interval_ms)} while healthy); last status: ${record.status}`,
    };
  }
  return { healthy: true, known: true, line: `${name}: healthy · ${record.status}` };
}

export function parseHealthRecord(text: string): HealthRecord | null {
  const parsed = healthRecordSchema.safeParse(parseJsonOrUndefined(text));
  return parsed.success ? parsed.data : null;
}
