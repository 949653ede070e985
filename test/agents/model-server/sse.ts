import type { ServerResponse } from 'node:http';

/** Starts a server-sent-event stream the way both backends do (no buffering, no length). */
export function openStream(response: ServerResponse, extraHeaders: Record<string, string> = {}): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...extraHeaders,
  });
  response.flushHeaders();
}

export function sendEvent(response: ServerResponse, event: { type: string; [key: string]: unknown }): void {
  response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * An error answer as the backend sends it. A value written `"$RESETS_AT"` (epoch seconds) or
 * `"$RESETS_IN"` in the body or a header becomes that number when the answer is sent,
 * `resetInSeconds` ahead, since a script is written before the agent starts.
 */
export function sendError(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  resetInSeconds = 0,
): void {
  const resetsAt = Math.floor(Date.now() / 1000) + resetInSeconds;
  const fill = (value: unknown) =>
    JSON.stringify(value).replace(/"\$RESETS_(AT|IN)"/g, (_, which: string) =>
      String(which === 'AT' ? resetsAt : resetInSeconds),
    );
  response.writeHead(
    status,
    JSON.parse(fill({ 'content-type': 'application/json', ...headers })) as Record<string, string | number>,
  );
  response.end(fill(body));
}
