import * as z from 'zod/mini';
import type { ServiceStop } from '../../core/status/lost-run-end.ts';

/**
 * What systemd tells ExecStopPost= (and ExecStop=) about how the unit's main process ended
 * (systemd.exec(5), "Environment variables set or propagated by the service manager"):
 * $SERVICE_RESULT, $EXIT_CODE (exited, killed, dumped), $EXIT_STATUS (a number, or a signal name
 * without SIG), and $INVOCATION_ID, which ties it to one start of the unit. Anywhere else (a
 * shell, a timer, the next run) they are not all there: null, and a lost run's cause stays
 * `unknown`. A value systemd would never set is no word of its: null too. zod/mini, as the
 * health file's schema: every reader loads this (core/status/health.ts says why).
 */

const serviceStopEnv = z.pipe(
  z.object({
    INVOCATION_ID: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
    SERVICE_RESULT: z.string().check(z.regex(/^[a-z][a-z-]*$/)),
    EXIT_CODE: z.optional(z.enum(['exited', 'killed', 'dumped'])),
    EXIT_STATUS: z.optional(z.string().check(z.regex(/^(\d{1,3}|[A-Z][A-Z0-9+-]*)$/))),
  }),
  z.transform((env): ServiceStop => ({
    invocationId: env.INVOCATION_ID,
    result: env.SERVICE_RESULT,
    exit: exitOf(env.EXIT_CODE, env.EXIT_STATUS),
  })),
);

function exitOf(code: 'exited' | 'killed' | 'dumped' | undefined, status: string | undefined): ServiceStop['exit'] {
  if (code === undefined || status === undefined) return null;
  const number = /^\d+$/.test(status);
  if (code === 'exited') return number ? { code, status: Number(status) } : null;
  return number ? null : { code, signal: status };
}

export function serviceStopFromEnv(env: NodeJS.ProcessEnv): ServiceStop | null {
  return serviceStopEnv.safeParse(env).data ?? null;
}
