import type { HealthRecord, HealthVerdict } from '../../core/status/health.ts';
import { parseListenAddress } from '../../core/status/listen-address.ts';
import type { Clock } from '../../core/time/clock.ts';
import { usageError } from '../../exit-codes.ts';

/**
 * `deadman run --health-listen ADDRESS`: the answer of `deadman health` served over HTTP by the
 * run itself (io/health-server.ts), judged by the same function from the same record the health
 * file gets, so the two never disagree. Loopback only unless `--health-public`: the answer names
 * the run and what it is doing to anyone who can connect, and a Kubernetes probe, which comes
 * to the pod's IP, is the one reason to open it wider (contrib/kubernetes/).
 */
export interface HealthListener {
  port: number;
  /** The record the run's reporters just wrote (or would have): the next probe is judged from it. */
  publish(record: HealthRecord): void;
  close(): Promise<void>;
}

export async function listenForHealth(
  flags: { address: string | undefined; public: boolean },
  name: string,
  clock: Clock,
): Promise<HealthListener | null> {
  if (flags.address === undefined) {
    if (flags.public)
      throw usageError('--health-public opens --health-listen to other hosts: give --health-listen too');
    return null;
  }
  const address = parseListenAddress(flags.address);
  if ('problem' in address) throw usageError(address.problem);
  if (!address.loopback && !flags.public) {
    throw usageError(
      `--health-listen ${flags.address} is not a loopback address: anyone who can reach it reads the run's health; add --health-public to mean it (a Kubernetes httpGet probe needs it)`,
    );
  }
  // Loaded only here: the judge's module brings zod, which a run without --health-listen never loads.
  const [{ judgeHealth }, { listenForHealthProbes }] = await Promise.all([
    import('../../core/status/health.ts'),
    import('../../io/health/health-server.ts'),
  ]);
  let latest: HealthRecord | null = null;
  const verdict = (): HealthVerdict =>
    latest === null
      ? { healthy: false, known: true, line: `${name}: starting` }
      : judgeHealth(latest, clock.wall(), name, true);
  try {
    const server = await listenForHealthProbes(address.host, address.port, verdict);
    return {
      port: server.port,
      publish: (record) => {
        latest = record;
      },
      close: () => server.close(),
    };
  } catch (error) {
    throw usageError(
      `--health-listen ${flags.address}: cannot listen (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}
