import { CONSULTABLE_SIGNALS } from '../signals/registry.ts';
import { z } from 'zod';
import { DEFAULT_CONFIG as D } from './defaults.ts';
import {
  AGE_MAX,
  MAX_REVIVES,
  SHORT_MAX,
  TIMER_MAX,
  absolutePath,
  argv,
  duration,
  httpUrl,
  name,
  redactPattern,
  regex,
} from './schema-fields.ts';
import { diagnosticianNeeds } from './diagnostician-needs.ts';
import { ALERT_EVENTS } from '../alerts/alert.ts';
import { SANDBOX_LEVELS } from '../units/hardening.ts';
import { ADAPTER_VALUES, ON_STALL_VALUES, STDIN_VALUES } from './enum-values.ts';
import {
  claimSchema,
  jobSchema,
  type commandClaimSchema,
  type fileClaimSchema,
  type httpClaimSchema,
  type sqlClaimSchema,
} from './job-schema.ts';

export {
  claimSchema,
  commandClaimSchema,
  fileClaimSchema,
  httpClaimSchema,
  jobSchema,
  sqlClaimSchema,
} from './job-schema.ts';

/**
 * The schema of deadman.toml — the one definition of the configuration. Flags of
 * `deadman run` are the same keys (`--hung-timeout` ↔ `hung_timeout`) merged over the file
 * before this schema validates both. Durations are systemd spans resolved to milliseconds.
 */

export const configSchema = z.strictObject({
  name: name.optional(),
  /** The command `deadman run` starts when none is given after `--` (the template unit's way). */
  command: argv.optional(),
  cwd: absolutePath.optional(),
  database: z.string().optional(),
  state_dir: absolutePath.optional(),
  auto_recover: z.boolean().default(D.auto_recover),
  inactivity: duration({ max: TIMER_MAX, off: true }).default(D.inactivity),
  timeout: duration({ max: TIMER_MAX, off: true }).default(D.timeout),
  on_stall: z.enum(ON_STALL_VALUES).optional(),
  stop_grace: duration({ max: SHORT_MAX }).default(D.stop_grace),
  ready_pattern: regex.optional(),
  ready_port: z.number().int().min(1).max(65535).optional(),
  ready_timeout: duration({ max: TIMER_MAX }).default(D.ready_timeout),
  stdin: z.enum(STDIN_VALUES).default(D.stdin),
  adapter: z.enum(ADAPTER_VALUES).default(D.adapter),
  hung_timeout: duration({ max: TIMER_MAX }).default(D.hung_timeout),
  kill_grace: duration({ max: SHORT_MAX }).default(D.kill_grace),
  poll: duration({ min: '100ms', max: SHORT_MAX }).default(D.poll),
  verify_window: duration({ max: TIMER_MAX }).default(D.verify_window),
  exit_grace: duration({ max: TIMER_MAX, off: true }).default(D.exit_grace),
  budget: z
    .strictObject({ tokens: z.number().int().nonnegative().default(0), cost_usd: z.number().nonnegative().default(0) })
    .default(() => ({ ...D.budget })),
  usage_limit: z
    .strictObject({
      max_wait: duration({ max: TIMER_MAX }).default(D.usage_limit.max_wait),
      jitter: duration({ max: SHORT_MAX }).default(D.usage_limit.jitter),
      backoff: duration({ min: '1s', max: SHORT_MAX }).default(D.usage_limit.backoff),
      continue_grace: duration({ max: SHORT_MAX }).default(D.usage_limit.continue_grace),
    })
    .default(() => ({ ...D.usage_limit })),
  ignore: z.array(regex).default(() => [...D.ignore]),
  activity: z
    .strictObject({
      window: duration({ min: '1s', max: SHORT_MAX }).default(D.activity.window),
      cpu: duration({ max: SHORT_MAX }).default(D.activity.cpu),
      io_bytes: z.number().int().nonnegative().default(D.activity.io_bytes),
    })
    .default(() => ({ ...D.activity })),
  max_line_bytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(D.max_line_bytes),
  generic: z
    .strictObject({
      session_pattern: regex.optional(),
      turn_end_pattern: regex.optional(),
    })
    .default(() => ({ ...D.generic })),
  revive: z
    .strictObject({
      max_age: duration({ max: AGE_MAX, off: true }).default(D.revive.max_age),
      max_revives: z
        .number()
        .int()
        .nonnegative()
        .max(
          MAX_REVIVES,
          `at most ${MAX_REVIVES}: a session revived that often in a row without a clean completion needs a person, not another revive`,
        )
        .default(D.revive.max_revives),
      delay: duration({ max: SHORT_MAX }).default(D.revive.delay),
      start_timeout: duration({ max: SHORT_MAX }).default(D.revive.start_timeout),
      message: z.string().min(1).optional(),
      command: argv.optional(),
      session_files: z.array(z.enum(['codex', 'claude'])).default(() => [...D.revive.session_files]),
      codex_home: absolutePath.optional(),
      claude_config_dir: absolutePath.optional(),
    })
    .default(() => structuredClone(D.revive)),
  diagnose: z
    .strictObject({
      diagnostician: z.enum(['rules', 'command', 'openai', 'anthropic']).optional(),
      command: argv.optional(),
      timeout: duration({ max: SHORT_MAX }).default(D.diagnose.timeout),
      api: z.enum(['chat', 'responses']).default(D.diagnose.api),
      base_url: httpUrl.optional(),
      model: z.string().min(1).max(200).optional(),
      api_key_env: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be an environment variable name' })
        .optional(),
      signals: z.array(z.enum(CONSULTABLE_SIGNALS)).default(() => [...D.diagnose.signals]),
    })
    .superRefine((d, ctx) =>
      diagnosticianNeeds(d).forEach(([key, message]) => ctx.addIssue({ code: 'custom', path: [key], message })),
    )
    .default(() => ({ ...D.diagnose })),
  notify: z
    .strictObject({
      webhook: z.array(httpUrl).default(() => []),
      healthchecks: httpUrl.optional(),
      ntfy: httpUrl.optional(),
      command: argv.optional(),
      timeout: duration({ max: SHORT_MAX }).default(D.notify.timeout),
      min_interval: duration({ max: AGE_MAX }).default(D.notify.min_interval),
      events: z.array(z.enum(ALERT_EVENTS)).default(() => [...D.notify.events]),
      reminder: duration({ max: TIMER_MAX, off: true }).default(D.notify.reminder),
    })
    .default(() => structuredClone(D.notify)),
  metrics: z
    .strictObject({
      textfile: absolutePath.optional(),
    })
    .default(() => ({ ...D.metrics })),
  unit: z
    .strictObject({
      sandbox: z.enum(SANDBOX_LEVELS).default(D.unit.sandbox),
    })
    .default(() => ({ ...D.unit })),
  retention: z
    .strictObject({
      max_age: duration({ max: AGE_MAX }).default(D.retention.max_age),
      max_runs: z.number().int().min(1).default(D.retention.max_runs),
      events_per_run: z.number().int().min(10).default(D.retention.events_per_run),
      observations_per_run: z.number().int().min(10).default(D.retention.observations_per_run),
    })
    .default(() => structuredClone(D.retention)),
  redact: z
    .strictObject({
      patterns: z.array(redactPattern).default(() => [...D.redact.patterns]),
    })
    .default(() => ({ patterns: [...D.redact.patterns] })),
  // An `[[evidence]]` block written as `claim = "…"` reaches this schema already read into a typed claim (lib/core/claims/english-evidence.ts).
  evidence: z.array(claimSchema).default(() => []),
  jobs: z.record(name, jobSchema).default(() => ({})),
});

export type Config = z.output<typeof configSchema>;
export type Claim = z.output<typeof claimSchema>;
export type FileClaim = z.output<typeof fileClaimSchema>;
export type CommandClaim = z.output<typeof commandClaimSchema>;
export type HttpClaim = z.output<typeof httpClaimSchema>;
export type SqlClaim = z.output<typeof sqlClaimSchema>;
export type Job = z.output<typeof jobSchema>;

/** Keys the schema accepts at `path` (for "did you mean"); empty where the path is not an object. */
export function knownKeysAt(path: PropertyKey[]): string[] {
  let schemas: z.core.$ZodType[] = [configSchema];
  for (const segment of path) {
    schemas = schemas.flatMap((s) => childSchemas(unwrap(s), segment));
  }
  return [...new Set(schemas.flatMap((s) => objectKeys(unwrap(s))))];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.innerType) return unwrap(def.innerType as z.core.$ZodType);
  if (def.type === 'pipe') return unwrap(def.in as z.core.$ZodType);
  return schema;
}

function childSchemas(schema: z.core.$ZodType, segment: PropertyKey): z.core.$ZodType[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.type === 'union') return (def.options as z.core.$ZodType[]).flatMap((o) => childSchemas(unwrap(o), segment));
  if (def.type === 'array') return [def.element as z.core.$ZodType];
  if (def.type === 'record') return [def.valueType as z.core.$ZodType];
  if (def.type === 'object') {
    const child = (def.shape as Record<string, z.core.$ZodType>)[String(segment)];
    return child ? [child] : [];
  }
  return [];
}

function objectKeys(schema: z.core.$ZodType): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.type === 'union') return (def.options as z.core.$ZodType[]).flatMap((o) => objectKeys(unwrap(o)));
  if (def.type === 'object') return Object.keys(def.shape as object);
  return [];
}
