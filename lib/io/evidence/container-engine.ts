import { clockArgv, type ContainerArgv } from '../../core/evidence/container-commands.ts';
import { parseClock, type ContainerClock } from '../../core/evidence/container-output.ts';
import { CONTAINER_ENGINES } from '../../core/config/container-job.ts';
import { formatDuration } from '../../core/time/duration.ts';
import { runBounded } from '../process/bounded-run.ts';

/**
 * Reaching a job's container: which engine knows it (the configured one, else podman, then
 * docker: whichever CLI is on PATH and knows the name), whether it runs, and `exec` of one of
 * deadman's read-only commands in it. The exec adds nothing to the container's own settings: no
 * `--privileged`, no `--user` (the container's default user, the one its own processes run as),
 * no terminal, no stdin; only `LC_ALL=C`, so the error lines read back are the C library's words.
 */

export type Engine = (typeof CONTAINER_ENGINES)[number];

/** Each exec (and the engine's inspect) is stopped after this long; the claim is then unknown. Not the command inside: the engine may leave it to finish. */
export const EXEC_TIMEOUT_MS = 15_000;
/** Output kept per exec: a glob's listing of 100,000 entries or two 1 MiB samples fit. */
const MAX_EXEC_OUTPUT = 64 * 1024 * 1024;

const NOT_ON_PATH = 'not on PATH';

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A running container deadman can exec its read-only commands in. */
export interface ReachedContainer {
  name: string;
  /** Runs one command to its end; throws (one line) when it could not run, timed out or was killed. */
  exec(argv: ContainerArgv): Promise<ExecResult>;
}

/** A running container and its clock, or the one line that says why its evidence cannot be read. */
export type Reached = { container: ReachedContainer; clock: ContainerClock } | { unreachable: string };

/**
 * Reads the container's clock (`date`) through the configured engine, else podman, then docker:
 * on the usual path that one exec is all it costs. When it fails, the engine's inspect says why
 * (not running, or not known to that engine, which sends the search to the next one).
 */
export async function reachContainer(name: string, engine: Engine | undefined): Promise<Reached> {
  const heard: string[] = [];
  for (const candidate of engine === undefined ? CONTAINER_ENGINES : [engine]) {
    const container: ReachedContainer = { name, exec: (argv) => execIn(candidate, name, argv) };
    const date = await run(execArgv(candidate, name, clockArgv()));
    const clock = 'failed' in date || date.code !== 0 ? null : parseClock(date.stdout);
    if (clock !== null) return { container, clock };
    if ('failed' in date && date.failed === NOT_ON_PATH) {
      heard.push(`${candidate}: ${NOT_ON_PATH}`);
      continue;
    }
    const asked = await run([candidate, 'container', 'inspect', '--format', '{{.State.Status}}', name]);
    if ('failed' in asked || asked.code !== 0) {
      heard.push(`${candidate}: ${'failed' in asked ? asked.failed : lastLine(asked.stderr) || `exit ${asked.code}`}`);
      continue;
    }
    const status = asked.stdout.trim();
    if (status !== 'running')
      return {
        unreachable: `container ${name} is ${status || 'in no known state'} (${candidate}), not running: its files cannot be read`,
      };
    const said =
      'failed' in date
        ? date.failed
        : lastLine(date.code === 0 ? `printed ${JSON.stringify(date.stdout.trim())}` : date.stderr) ||
          `exit ${date.code}`;
    return { unreachable: `container ${name} (${candidate}): cannot read its clock: date ${said}` };
  }
  return { unreachable: `container ${name} cannot be reached: ${heard.join('; ')}` };
}

function execArgv(engine: Engine, name: string, argv: ContainerArgv): string[] {
  return [engine, 'exec', '--env', 'LC_ALL=C', name, ...argv];
}

async function execIn(engine: Engine, name: string, argv: ContainerArgv): Promise<ExecResult> {
  const result = await run(execArgv(engine, name, argv));
  if ('failed' in result) throw new Error(`${argv[0]} in container ${name}: ${result.failed}`);
  return result;
}

async function run(argv: readonly string[]): Promise<ExecResult | { failed: string }> {
  const outcome = await runBounded({ argv, timeoutMs: EXEC_TIMEOUT_MS, maxOutputBytes: MAX_EXEC_OUTPUT });
  switch (outcome.kind) {
    case 'exited':
      return { code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr };
    case 'not-started':
      return { failed: outcome.error === 'command not found' ? NOT_ON_PATH : outcome.error };
    case 'timed-out':
      return { failed: `timed out after ${formatDuration(outcome.afterMs)}` };
    case 'signaled':
      return { failed: `killed by ${outcome.signal}` };
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop()?.trim() ?? '';
}
