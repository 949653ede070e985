import { RUN_TAG_ENV } from '../../core/process/run-tag.ts';
import { LAUNCHD_LABEL_ENV } from '../../core/units/launchd-exit.ts';

/** Variables that belong to deadman's own unit — speaking to systemd for it, claiming its sockets, its launchd job — never to what it starts. */
const SERVICE_VARIABLES = [
  'NOTIFY_SOCKET',
  'WATCHDOG_USEC',
  'WATCHDOG_PID',
  'LISTEN_PID',
  'LISTEN_FDS',
  'LISTEN_FDNAMES',
  LAUNCHD_LABEL_ENV,
];

/** The environment of a command deadman starts: `env` without the unit's systemd variables, with the run tag when given (ownership outside a cgroup). */
export function childEnvironment(env: NodeJS.ProcessEnv, runTag: string | null): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = runTag === null ? { ...env } : { ...env, [RUN_TAG_ENV]: runTag };
  for (const key of SERVICE_VARIABLES) delete out[key];
  return out;
}
