import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP sink that records every request; `/hang` never answers; a path in `redirects` answers with its [status, Location]. */
export async function loopbackSink(
  t: { after(fn: () => void): void },
  redirects: Record<string, [number, string]> = {},
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const redirect = redirects[request.url ?? ''];
      if (redirect) response.writeHead(redirect[0], { location: redirect[1] }).end();
      else if (request.url !== '/hang') response.end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.closeAllConnections());
  t.after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

/** A dead sink: accepts every TCP connection and never reads or answers. `accepted` counts them. */
export async function silentSink(t: { after(fn: () => void): void }): Promise<{ url: string; accepted: () => number }> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    socket.pause();
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, accepted: () => sockets.length };
}
