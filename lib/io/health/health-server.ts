import { createServer, type Server } from 'node:http';
import type { HealthVerdict } from '../../core/status/health.ts';

/**
 * The health answer over HTTP, for Kubernetes `httpGet` probes: 200 and the verdict's line while
 * healthy, 503 and the line when not, at any path; HEAD alike without the line. It answers from
 * the running deadman's memory, so a probe costs no process start. `verdict` is asked at every
 * request, with the clock of that moment.
 */
export interface HealthServer {
  /** The port listened on (the one asked for, or the kernel's pick for 0). */
  port: number;
  close(): Promise<void>;
}

export function listenForHealthProbes(host: string, port: number, verdict: () => HealthVerdict): Promise<HealthServer> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const { healthy, line } = verdict();
    response.writeHead(healthy ? 200 : 503, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : `${line}\n`);
  });
  // Probes come every few seconds: no connection is kept open between them, and none keeps deadman alive.
  server.keepAliveTimeout = 1_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      server.unref();
      resolve({ port: (server.address() as { port: number }).port, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
