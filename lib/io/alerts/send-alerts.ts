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
  return Promise.all(
    requests.map((request) =>
      request.sink === 'command' ? runSinkCommand(request, timeoutMs) : post(request, timeoutMs),
    ),
  );
}

/**
 * Redirects are followed only to the webhook's own origin (scheme, host and port), only when
 * they keep the method and body (307, 308), and at most MAX_REDIRECTS of them: the body (and
 * any token in the headers) was meant for the host the operator named, and a 307 to another
 * origin re-POSTed it there. A 301/302/303 would turn the POST into a GET without the alert,
 * delivering nothing, so it is the answer, not followed; the line names it either way.
 */
const MAX_REDIRECTS = 3;
const KEEPS_BODY = new Set([307, 308]);

async function post(request: Extract<AlertRequest, { url: string }>, timeoutMs: number): Promise<AlertResult> {
  const first = new URL(request.url);
  const signal = AbortSignal.timeout(timeoutMs);
  let url = first;
  try {
    for (let hops = 0; ; hops++) {
      const response = await fetch(url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal,
        redirect: 'manual',
      });
      await response.body?.cancel();
      const answered = `${shown(first)} answered ${response.status}${hops > 0 ? ` at ${shown(url)} (after ${hops} same-origin ${hops === 1 ? 'redirect' : 'redirects'})` : ''}`;
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null) return { sink: request.sink, ok: response.ok, detail: answered };
      const next = new URL(location, url);
      const refused =
        next.origin !== first.origin
          ? `to another origin, ${shown(next)}`
          : !KEEPS_BODY.has(response.status)
            ? 'it would drop the body'
            : hops === MAX_REDIRECTS
              ? `more than ${MAX_REDIRECTS} redirects`
              : null;
      if (refused !== null) return { sink: request.sink, ok: false, detail: `${answered}, not followed (${refused})` };
      url = next;
    }
  } catch (error) {
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    return { sink: request.sink, ok: false, detail: `${shown(url)}: ${why}` };
  }
}

/** Credentials in a URL are for the request, never for a line anyone reads. */
const shown = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`;

async function runSinkCommand(
  request: Extract<AlertRequest, { sink: 'command' }>,
  timeoutMs: number,
): Promise<AlertResult> {
  const outcome = await runBounded({ argv: [...request.argv], input: request.stdin, timeoutMs });
  const program = request.argv[0] ?? '';
  if (outcome.kind === 'exited')
    return { sink: 'command', ok: outcome.code === 0, detail: `${program} exited ${outcome.code}` };
  return {
    sink: 'command',
    ok: false,
    detail: `${program}: ${outcome.kind === 'not-started' ? outcome.error : outcome.kind}`,
  };
}
