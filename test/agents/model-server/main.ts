import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { answerMessages } from './messages.ts';
import { answerResponses } from './responses.ts';
import { DONE, readScript, type Turn } from './script.ts';

/**
 * The scripted loopback model server: `node main.js SCRIPT LOG PORTFILE`. It answers Codex's
 * Responses requests and Claude Code's Messages requests from one queue of turns, appends every
 * request it received (path, the headers that say who asked, the JSON body) to LOG, and writes
 * the port it listens on to PORTFILE once it is ready.
 */

const [scriptFile, logFile, portFile] = process.argv.slice(2);
if (!scriptFile || !logFile || !portFile) throw new Error('usage: main.js SCRIPT LOG PORTFILE');
const log = logFile;
const queue: Turn[] = [...readScript(scriptFile).turns];
let serial = 0;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
  });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const text = await readBody(request);
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { unparsed: text.slice(0, 200) };
  }
  const path = (request.url ?? '').split('?')[0] ?? '';
  const kind = path.endsWith('/responses') ? 'responses' : path.endsWith('/messages') ? 'messages' : 'other';
  const turn = kind === 'other' ? undefined : (queue.shift() ?? DONE);
  serial += 1;
  appendFileSync(
    log,
    JSON.stringify({
      serial,
      at: Date.now(),
      method: request.method,
      path: request.url,
      kind,
      turn: turn?.kind ?? null,
      headers: request.headers,
      body,
    }) + '\n',
  );
  if (kind === 'responses') return answerResponses(response, turn!, body, serial);
  if (kind === 'messages') return answerMessages(response, turn!, body, serial);
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end('{"error":{"type":"not_found","message":"not scripted"}}');
}

const server = createServer((request, response) => void handle(request, response));
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  writeFileSync(`${portFile}.tmp`, String(address.port));
  renameSync(`${portFile}.tmp`, portFile);
});
