import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consultFor } from '../../../lib/commands/run/diagnostician-edge.ts';
import { configSchema } from '../../../lib/core/config/config.ts';
import { createRedactor } from '../../../lib/core/redact/redact.ts';
import { diagnoseIncident } from '../../../lib/supervise/tick/diagnose-incident.ts';
import type { Incident } from '../../../lib/supervise/record-types.ts';
import type { RunRecorder } from '../../../lib/supervise/ports.ts';
import type { ProcessInfo } from '../../../lib/core/process/process-info.ts';

/**
 * The model diagnosticians against a loopback HTTP server speaking each API's shape: a valid
 * answer is taken; invalid JSON, a wrong classification, evidence outside the packet and a
 * timeout each leave the decision to the rules with the reason recorded; planted secrets and
 * the key itself never reach the request body.
 */

const API_KEY = 'sk-proj-THEKEYxxxxxxxxxxxxxxxxxxxx';
const PLANTED = { token: 'ghp_PLANTEDplantedPLANTEDplanted1234', envSecret: 'hunter2-env-secret-value' };
const TARGET: ProcessInfo = {
  pid: 48_213,
  ppid: 1,
  pgid: 48_213,
  sid: 48_213,
  startTime: 5,
  state: 'S',
  comm: 'sleep',
  cmdline: ['sleep', '600'],
  cpuTicks: 0,
  ioBytes: 0,
  listening: false,
};

const answer = (overrides: object = {}) =>
  JSON.stringify({
    classification: 'HUNG_PROCESS',
    confidence: 0.9,
    recommended_action: 'OBSERVE',
    rationale: 'a long download',
    evidence_ids: ['proc_001'],
    guidance: null,
    requires_human_approval: false,
    ...overrides,
  });

const SHAPES = {
  chat: {
    kind: 'openai',
    api: 'chat',
    path: '/v1/chat/completions',
    reply: (text: string) => ({ choices: [{ message: { role: 'assistant', content: text } }] }),
  },
  responses: {
    kind: 'openai',
    api: 'responses',
    path: '/v1/responses',
    reply: (text: string) => ({
      output: [
        { type: 'reasoning', summary: [] },
        { type: 'message', content: [{ type: 'output_text', text }] },
      ],
    }),
  },
  messages: {
    kind: 'anthropic',
    api: 'chat',
    path: '/v1/messages',
    reply: (text: string) => ({ content: [{ type: 'text', text }] }),
  },
} as const;

const CASES: Array<{ name: string; text: string | null; source: string; action: string; rationale: RegExp }> = [
  { name: 'a valid answer', text: answer(), source: 'external', action: 'OBSERVE', rationale: /^a long download$/ },
  {
    name: 'invalid JSON',
    text: 'I would kill it',
    source: 'external-refused',
    action: 'none',
    rationale: /did not answer a JSON object/,
  },
  {
    name: 'a wrong classification',
    text: answer({ classification: 'TIMEOUT' }),
    source: 'external-refused',
    action: 'OBSERVE',
    rationale: /classified the incident as TIMEOUT/,
  },
  {
    name: 'evidence ids outside the packet',
    text: answer({ evidence_ids: ['proc_042'] }),
    source: 'external-refused',
    action: 'OBSERVE',
    rationale: /not in the packet \(proc_042\)/,
  },
  { name: 'a timeout', text: null, source: 'external-refused', action: 'none', rationale: /gave no answer within/ },
];

/** The diagnoses recorded, as the test reads them. */
function keptDiagnoses(): Pick<RunRecorder, 'diagnosis'> & {
  rows: Array<{ source: string; action: string; rationale: string }>;
} {
  const rows: Array<{ source: string; action: string; rationale: string }> = [];
  return {
    rows,
    diagnosis: (_incident, diagnosis, source) =>
      void rows.push({ source, action: diagnosis.action, rationale: diagnosis.rationale }),
  };
}

async function withServer(respond: (request: IncomingMessage, body: string, response: ServerResponse) => void) {
  const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      respond(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    seen,
    base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

for (const [shapeName, shape] of Object.entries(SHAPES)) {
  for (const c of CASES) {
    test(`${shapeName}: ${c.name} → ${c.source === 'external' ? 'taken' : 'the rules decide, the reason recorded'}`, async () => {
      // Only the case that never answers meets the short timeout: on a busy host the first call of
      // a process (its first connection, nothing compiled yet) alone took more than 700 ms.
      const server = await withServer((_request, _body, response) => {
        if (c.text === null) return; // never answers: the timeout must end the call
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shape.reply(c.text)));
      });
      try {
        const env = { DIAG_KEY: API_KEY, SOME_TOKEN: PLANTED.envSecret };
        const diagnose = configSchema.parse({
          diagnose: {
            diagnostician: shape.kind,
            api: shape.api,
            base_url: server.base,
            model: 'm-1',
            api_key_env: 'DIAG_KEY',
            timeout: c.text === null ? '700ms' : '20s',
          },
        }).diagnose;
        const consult = consultFor(diagnose, createRedactor({ env }), env);
        const records = keptDiagnoses();
        const incident: Incident = {
          id: 1,
          kind: 'HUNG_PROCESS',
          state: 'OPEN',
          message: 'sleep (pid 48213) idle for 2m',
          attempts: 0,
        };
        const lastLines = [
          `curl -H "Authorization: token ${PLANTED.token}" https://example.com`,
          `export SOME_TOKEN=${PLANTED.envSecret}`,
        ];
        const result = await diagnoseIncident(
          'HUNG_PROCESS',
          incident,
          { processes: [TARGET], target: TARGET, lastLines, thresholds: { hung_timeout_ms: 60_000 } },
          { records, logger: { log: () => {} }, consult },
        );
        assert.equal(result.action, c.source === 'external' ? 'REPORT' : 'TERMINATE_DESCENDANT_PROCESS');
        assert.deepEqual(
          records.rows.map((r) => r.source),
          ['rules', c.source],
        );
        assert.equal(records.rows[1]!.action, c.action);
        assert.match(records.rows[1]!.rationale, c.rationale);
        assert.equal(server.seen.length, 1, 'one call per incident');
        const [request] = server.seen;
        assert.equal(request!.url, shape.path);
        for (const secret of [PLANTED.token, PLANTED.envSecret, API_KEY, '48213'])
          assert.ok(!request!.body.includes(secret), `${secret} reached the server`);
        assert.match(request!.body, /proc_001/);
        const auth = shape.kind === 'anthropic' ? request!.headers['x-api-key'] : request!.headers.authorization;
        assert.equal(auth, shape.kind === 'anthropic' ? API_KEY : `Bearer ${API_KEY}`);
      } finally {
        await server.close();
      }
    });
  }
}

test('no key in the environment: nothing is sent, the rules decide, and the problem names the variable', async () => {
  const server = await withServer((_request, _body, response) => response.end('{}'));
  try {
    const diagnose = configSchema.parse({
      diagnose: { diagnostician: 'anthropic', base_url: server.base, model: 'm-1', api_key_env: 'DIAG_KEY' },
    }).diagnose;
    const records = keptDiagnoses();
    const incident: Incident = { id: 1, kind: 'HUNG_PROCESS', state: 'OPEN', message: 'hung', attempts: 0 };
    await diagnoseIncident(
      'HUNG_PROCESS',
      incident,
      { processes: [TARGET], target: TARGET, lastLines: [], thresholds: {} },
      { records, logger: { log: () => {} }, consult: consultFor(diagnose, createRedactor(), {}) },
    );
    assert.equal(server.seen.length, 0);
    assert.match(records.rows[1]!.rationale, /has no key: \$DIAG_KEY is not set/);
  } finally {
    await server.close();
  }
});
