import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configSchema } from '../../../lib/core/config/config.ts';
import { createRedactor } from '../../../lib/core/redact/redact.ts';
import { askForPlan } from '../../../lib/io/evidence/ask-plan.ts';

/** The plan question through an OpenAI-compatible endpoint on loopback: a plan is taken, a command claim or garbage is not, the key stays in its header. */

const KEY = 'sk-proj-PLANKEYxxxxxxxxxxxxxxxxxxxx';

async function modelServer(t: { after(fn: () => void): void }, answers: string[]) {
  const seen: Array<{ auth: string | undefined; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ auth: request.headers.authorization, body });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answers.shift() ?? '' } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

test('an OpenAI-compatible diagnostician proposes a plan in the typed schema; a command claim or prose is refused', async (t) => {
  const plan =
    '```json\n{"claims":[{"kind":"file","root":"/srv","glob":"/srv/*.xlsx","non_empty":true,"max_age":"1d"}]}\n```';
  const command = '{"claims":[{"kind":"command","command":["rm","-rf","/"]}]}';
  const server = await modelServer(t, [plan, command, 'I think it is fine']);
  const diagnose = configSchema.parse({
    diagnose: { diagnostician: 'openai', base_url: server.base, model: 'm', api_key_env: 'PLAN_KEY' },
  }).diagnose;
  const env = { PLAN_KEY: KEY };
  const ask = () =>
    askForPlan(
      diagnose,
      createRedactor({ env: {}, patterns: [] }),
      { task: 'claim_plan', claim: 'a spreadsheet in /srv' },
      env,
    );

  const first = await ask();
  assert.ok(first?.ok);
  assert.deepEqual(
    first.plan.map((c) => [c.kind, c.name, c.kind === 'file' ? c.max_age : null]),
    [['file', 'claim', 86_400_000]],
  );
  assert.equal(server.seen[0]!.auth, `Bearer ${KEY}`);
  assert.ok(!server.seen[0]!.body.includes(KEY), 'the key is only in the header');
  assert.match(JSON.parse(server.seen[0]!.body).messages[1].content, /a spreadsheet in \/srv/);

  const second = await ask();
  assert.deepEqual(second, {
    ok: false,
    problem:
      'answered with a bad "claims.0.kind": each claim needs kind = "file" or "http" (a plan may not run commands)',
  });
  const third = await ask();
  assert.deepEqual(third, { ok: false, problem: 'did not answer a JSON object' });
  assert.equal(
    await askForPlan(configSchema.parse({}).diagnose, createRedactor({ env: {}, patterns: [] }), {}),
    null,
    'the rules: nobody to ask',
  );
});
