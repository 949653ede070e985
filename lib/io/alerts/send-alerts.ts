import type { AlertRequest } from '../../core/alerts/alert.ts';
import { runBounded } from '../process/bounded-run.ts';

/**
 * Sends every request at once, each bounded by `timeoutMs`: a sink that hangs or refuses costs
 * at most the timeout and never holds up the others. Never throws.
 */
export interface AlertResult {
  sink: AlertRequest['sink'];
  ok: boolean;
  detail: string;
}

export function sendAlerts(requests: readonly AlertRequest[], timeoutMs: number): Promise<AlertResult[]> {
  return Promise.all(requests.map((request) => (request.sink === 'command' ? runSinkCommand(request, timeoutMs) : post(request, timeoutMs))));
}

async function post(request: Extract<AlertRequest, { url: string }>, timeoutMs: number): Promise<AlertResult> {
  const where = new URL(request.url);
  // Credentials in the URL are for the request, never for a line anyone reads.
  const shown = `${where.protocol}//${where.host}${where.pathname}`;
  try {
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    await response.body?.cancel();
    return { sink: request.sink, ok: response.ok, detail: `${shown} answered ${response.status}` };
  } catch (error) {
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    return { sink: request.sink, ok: false, detail: `${shown}: ${why}` };
  }
}

async function runSinkCommand(request: Extract<AlertRequest, { sink: 'command' }>, timeoutMs: number): Promise<AlertResult> {
  const outcome = await runBounded({ argv: [...request.argv], input: request.stdin, timeoutMs });
  const program = request.argv[0] ?? '';
  if (outcome.kind === 'exited') return { sink: 'command', ok: outcome.code === 0, detail: `${program} exited ${outcome.code}` };
  return { sink: 'command', ok: false, detail: `${program}: ${outcome.kind === 'not-started' ? outcome.error : outcome.kind}` };
}
