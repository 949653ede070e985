import { z } from 'zod';

/**
 * The health file behind `deadman health`, for probes that only run a command (Kubernetes
 * livenessProbe.exec, Docker HEALTHCHECK, Nomad script checks). The running deadman rewrites it
 * while the run is healthy, so a wedged or dead deadman, or a stalled run, leaves it to go
 * stale: the probe needs no other way to reach deadman. Pure: parsing and the verdict.
 */
const healthRecordSchema = z.object({
  name: z.string(),
  pid: z.number().int(),
  /** Wall-clock ms of the last refresh. */
  updated_at: z.number().finite(),
  /** How often the running deadman refreshes it, in ms. */
  interval_ms: z.number().finite().positive(),
  status: z.string(),
});

export type HealthRecord = z.output<typeof healthRecordSchema>;

/** A refresh missed three times over means the run stopped being healthy (or deadman stopped). */
export const STALE_AFTER_INTERVALS = 3;

export type HealthVerdict = { healthy: true; line: string } | { healthy: false; line: string };

export function judgeHealth(record: HealthRecord | null, nowMs: number, name: string): HealthVerdict {
  if (!record) return { healthy: false, line: `${name}: no health file: the run is not running under deadman, or never became healthy` };
  const ageMs = Math.max(0, nowMs - record.updated_at);
  const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;
  if (ageMs > STALE_AFTER_INTERVALS * record.interval_ms) {
    return { healthy: false, line: `${name}: unhealthy: last healthy ${seconds(ageMs)} ago (refreshed every ${seconds(record.interval_ms)} while healthy); last status: ${record.status}` };
  }
  return { healthy: true, line: `${name}: healthy · ${record.status}` };
}

export function parseHealthRecord(text: string): HealthRecord | null {
  try {
    const parsed = healthRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
