import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLineRedactor, createRedactor, REDACTED } from '../../../lib/core/redact/redact.ts';
import { hideKeyBlockLines } from '../../../lib/core/redact/line-redactor.ts';
import { RedactedLineStream } from '../../../lib/core/redact/line-stream.ts';

/**
 * The corpus: one line (or block) per shape a secret takes in what an agent or a build prints,
 * the secret in it, and — where it matters — what must stay around it.
 */

const KEY_BODY = [
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDl0n7dFx3Xv7QmS0d1ZmY8r2JQ0vT0dNqQZ1oE4x8VxQAAAJiN1c0XjdXN',
  'AAAEBJc2gwYWZ0ZXJfYWxsX3RoaXNfdGltZQ==',
];
const PEM = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...KEY_BODY, '-----END OPENSSH PRIVATE KEY-----'].join('\n');
const BASIC = Buffer.from('deploy:hunter2basic').toString('base64');

const CORPUS: Array<{ shape: string; text: string; secret: string; keeps?: string }> = [
  {
    shape: 'flag then value',
    text: 'mytool --password hunterX9 --verbose',
    secret: 'hunterX9',
    keeps: '--password [REDACTED] --verbose',
  },
  {
    shape: '--token value',
    text: 'cli --token t0kenvalue123 run',
    secret: 't0kenvalue123',
    keeps: '--token [REDACTED] run',
  },
  { shape: '--api-key value', text: 'cli --api-key ak_998877665544 x', secret: 'ak_998877665544' },
  { shape: '--client-secret "quoted value"', text: 'oauth --client-secret "a b c secret"', secret: 'a b c secret' },
  { shape: '-password value (one dash)', text: 'java -jar x.jar -password javaPassw0rd', secret: 'javaPassw0rd' },
  { shape: '--password=value', text: 'cli --password=eqPassw0rd', secret: 'eqPassw0rd' },
  { shape: 'mysql -p value', text: 'mysql -u root -p mysqlPw123 shop', secret: 'mysqlPw123' },
  { shape: 'mysql -pvalue', text: 'mysqldump -uroot -pmysqlAttached9 db', secret: 'mysqlAttached9' },
  { shape: 'sshpass -p value', text: 'sshpass -p sshPassw0rd ssh host', secret: 'sshPassw0rd' },
  { shape: 'redis-cli -a value', text: 'redis-cli -h r -a redisPw777 ping', secret: 'redisPw777' },
  { shape: 'docker login -p value', text: 'docker login -u me -p dockerPw555 registry.example', secret: 'dockerPw555' },
  {
    shape: 'Authorization: Basic',
    text: `Authorization: Basic ${BASIC}`,
    secret: BASIC,
    keeps: `Authorization: Basic ${REDACTED}`,
  },
  {
    shape: 'Authorization: Bearer',
    text: 'curl -H "Authorization: Bearer abcDEF123456ghiJKL" https://api',
    secret: 'abcDEF123456ghiJKL',
  },
  {
    shape: 'Authorization: Digest',
    text: 'authorization: Digest username="u", response="6629fae49393a05397450978507c4ef1"',
    secret: '6629fae49393a05397450978507c4ef1',
  },
  {
    shape: 'Authorization: AWS4',
    text: 'Authorization: AWS4-HMAC-SHA256 Credential=AKID/2024, Signature=fe5f80f77d5fa3beca038a248ff027d0',
    secret: 'fe5f80f77d5fa3beca038a248ff027d0',
  },
  { shape: 'Authorization: bare token', text: 'Authorization: rawtoken9876543', secret: 'rawtoken9876543' },
  { shape: 'Proxy-Authorization', text: 'Proxy-Authorization: Basic cHJveHk6cGFzcw==', secret: 'cHJveHk6cGFzcw==' },
  {
    shape: 'JSON Authorization header',
    text: '{"headers": {"Authorization": "Token jsonHeaderTok42"}}',
    secret: 'jsonHeaderTok42',
  },
  { shape: 'Cookie header', text: 'Cookie: session=cookieSess10n99; theme=dark', secret: 'cookieSess10n99' },
  {
    shape: 'URL user:password',
    text: 'clone https://deploy:urlPassw0rd@git.example.com/r.git',
    secret: 'urlPassw0rd',
    keeps: `https://deploy:${REDACTED}@git.example.com/r.git`,
  },
  {
    shape: 'URL token as user',
    text: 'git push https://abcdefghij0123456789xyz@git.example.com/r',
    secret: 'abcdefghij0123456789xyz',
  },
  { shape: 'postgres URL', text: 'DATABASE_URL=postgres://app:pgPassw0rd@db:5432/app', secret: 'pgPassw0rd' },
  {
    shape: 'query access_token',
    text: 'GET https://api.example.com/v1/me?access_token=qsTok3n55&x=1',
    secret: 'qsTok3n55',
    keeps: `?access_token=${REDACTED}&x=1`,
  },
  { shape: 'query key', text: 'https://maps.example.com/api?key=mapsKey998877&q=x', secret: 'mapsKey998877' },
  {
    shape: 'query sig (SAS)',
    text: 'https://acct.blob.core.windows.net/c/b?sv=2022&sig=sAsSig%2Fabc123',
    secret: 'sAsSig%2Fabc123',
  },
  {
    shape: 'X-Amz-Signature',
    text: 'https://s3.amazonaws.com/b/k?X-Amz-Signature=amzSig0a1b2c3d4e',
    secret: 'amzSig0a1b2c3d4e',
  },
  {
    shape: 'Slack webhook',
    text: 'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0123ABCD/B0456EFGH/slackHookSecret1234567890',
    secret: 'slackHookSecret1234567890',
    keeps: 'https://hooks.slack.com/services/',
  },
  {
    shape: 'Discord webhook',
    text: 'post https://discord.com/api/webhooks/123456789012345678/discordHookTok_abcdefghijkl',
    secret: 'discordHookTok_abcdefghijkl',
  },
  {
    shape: 'Teams webhook',
    text: 'https://contoso.webhook.office.com/webhookb2/1111-2222@3333/IncomingWebhook/teamsHookSecret42/4444',
    secret: 'teamsHookSecret42',
  },
  {
    shape: 'Office 365 legacy webhook',
    text: 'https://outlook.office.com/webhook/o365HookSecret99/IncomingWebhook/x',
    secret: 'o365HookSecret99',
  },
  {
    shape: 'Telegram bot',
    text: 'https://api.telegram.org/bot123456:tgBotSecretABCdef/sendMessage',
    secret: 'tgBotSecretABCdef',
  },
  {
    shape: 'Zapier hook',
    text: 'https://hooks.zapier.com/hooks/catch/123456/zapHookSecret1/',
    secret: 'zapHookSecret1',
  },
  {
    shape: 'Mattermost hook',
    text: 'https://chat.example.org/hooks/mmHookSecret0123456789ab',
    secret: 'mmHookSecret0123456789ab',
  },
  {
    shape: 'healthchecks ping URL',
    text: 'curl https://hc-ping.com/5f3c1a2b-0000-4e5f-9a8b-7c6d5e4f3a2b/fail',
    secret: '5f3c1a2b-0000-4e5f-9a8b-7c6d5e4f3a2b',
  },
  { shape: 'OpenSSH private key block', text: PEM, secret: KEY_BODY[1]!, keeps: '-----BEGIN OPENSSH PRIVATE KEY-----' },
  { shape: 'RSA key block, last body line', text: PEM.replaceAll('OPENSSH', 'RSA'), secret: KEY_BODY[2]! },
  { shape: 'PEM block cut off before its END', text: PEM.split('\n').slice(0, 3).join('\n'), secret: KEY_BODY[1]! },
  {
    shape: 'ACME_SIGNING_SECRET_V2=',
    text: 'ACME_SIGNING_SECRET_V2=acmeS1gningValue',
    secret: 'acmeS1gningValue',
    keeps: `ACME_SIGNING_SECRET_V2=${REDACTED}`,
  },
  { shape: 'DB_PASSWORD: (yaml)', text: '  db_password: yamlPassw0rd', secret: 'yamlPassw0rd' },
  { shape: 'export X_TOKEN="…"', text: 'export DEPLOY_TOKEN="quoted-deploy-token"', secret: 'quoted-deploy-token' },
  { shape: 'CREDENTIAL in a name', text: 'GCP_CREDENTIALS_JSON=gcpCredValue123', secret: 'gcpCredValue123' },
  { shape: 'apiKey (camel case)', text: '{"apiKey": "camelApiKey123"}', secret: 'camelApiKey123' },
  {
    shape: 'Azure AccountKey',
    text: 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=azAcctKey+/==;EndpointSuffix=x',
    secret: 'azAcctKey+/==',
  },
  {
    shape: 'aws_secret_access_key',
    text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { shape: 'OpenAI key', text: 'key sk-proj-AbCdEf0123456789GhIjKlMn', secret: 'sk-proj-AbCdEf0123456789GhIjKlMn' },
  {
    shape: 'Anthropic key',
    text: 'sk-ant-api03-Zyxw9876543210_vuts-rqpo',
    secret: 'sk-ant-api03-Zyxw9876543210_vuts-rqpo',
  },
  {
    shape: 'GitHub token',
    text: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    secret: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  },
  { shape: 'GitLab token', text: 'glpat-abcdefghij0123456789', secret: 'glpat-abcdefghij0123456789' },
  { shape: 'Slack bot token', text: 'xoxb-123456789012-abcdefghijkl', secret: 'xoxb-123456789012-abcdefghijkl' },
  { shape: 'AWS key id', text: 'AKIAIOSFODNN7EXAMPLE', secret: 'AKIAIOSFODNN7EXAMPLE' },
  {
    shape: 'Google API key',
    text: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
    secret: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  },
  { shape: 'Stripe live key', text: 'stripe sk_live_abcdefghijklmnop1234', secret: 'sk_live_abcdefghijklmnop1234' },
  {
    shape: 'npm token',
    text: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    secret: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  },
  {
    shape: 'Hugging Face token',
    text: 'hf_abcdefghijklmnopqrstuvwxyzABCDEF',
    secret: 'hf_abcdefghijklmnopqrstuvwxyzABCDEF',
  },
  {
    shape: 'SendGrid key',
    text: 'SG.abcdefghijklmnopqrst.ABCDEFGHIJKLMNOPQRSTuvwxyz',
    secret: 'SG.abcdefghijklmnopqrst.ABCDEFGHIJKLMNOPQRSTuvwxyz',
  },
  {
    shape: 'JWT',
    text: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N',
    secret: 'dozjgNryP4J3jVmNHl0w5N',
  },
  {
    shape: 'a bare base64 key line',
    text: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  },
];

const redactor = createRedactor();

test(`the corpus: ${CORPUS.length} shapes, each hidden, with what is around it kept`, () => {
  assert.ok(CORPUS.length >= 40);
  const missed = CORPUS.filter(({ text, secret }) => redactor.text(text).includes(secret)).map(
    ({ shape, text }) => `${shape}: ${redactor.text(text)}`,
  );
  assert.deepEqual(missed, []);
  for (const { shape, text, keeps } of CORPUS)
    if (keeps) assert.ok(redactor.text(text).includes(keeps), `${shape}: ${redactor.text(text)}`);
});

test('the corpus redacted once is redacted for good: a second pass changes nothing', () => {
  for (const { text } of CORPUS) assert.equal(redactor.text(redactor.text(text)), redactor.text(text));
});

test('ordinary text stays as it was', () => {
  const ordinary = [
    '{"input_tokens":1200,"output_tokens":40,"max_tokens":100}',
    'max_tokens=100',
    'token_count=5',
    'https://example.com/a:b',
    'PASS 1 of 3',
    'press any key: continue',
    'keyboard=us monkey=1',
    'ssh -p 22 host',
    'docker run -p 8080:80 img',
    'SSH_AUTH_SOCK=/run/user/1000/agent',
    'GPG_KEY_FILE=/etc/key.asc',
    'passed 40 tests; signal=TERM',
    'commit 3f2a9c0e1d4b5a6978c0d1e2f3a4b5c6d7e8f9a0',
    'git clone ssh://git@github.com/x/y',
    '--verbose --output out.txt',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
  ];
  for (const text of ordinary) assert.equal(redactor.text(text), text);
});

test('an argv: the string after a secret flag is hidden, and -p only for programs known to take a password there', () => {
  assert.deepEqual(redactor.value(['deploy', '--password', 'hunterX9', '--token', 't0k', 'x']), [
    'deploy',
    '--password',
    REDACTED,
    '--token',
    REDACTED,
    'x',
  ]);
  assert.deepEqual(redactor.value(['/usr/bin/mysql', '-u', 'root', '-p', 'pw1', '-pAttached']), [
    '/usr/bin/mysql',
    '-u',
    'root',
    '-p',
    REDACTED,
    `-p${REDACTED}`,
  ]);
  assert.deepEqual(redactor.value(['docker', 'login', '-p', 'pw2']), ['docker', 'login', '-p', REDACTED]);
  assert.deepEqual(redactor.value(['docker', 'run', '-p', '8080:80']), ['docker', 'run', '-p', '8080:80']);
  assert.deepEqual(redactor.value(['ssh', '-p', '22', 'host']), ['ssh', '-p', '22', 'host']);
});

test('a stream of lines: a PEM block printed line by line leaves only its armour', () => {
  const lines = createLineRedactor(redactor.text);
  const out = ['before', ...PEM.split('\n'), 'after ok'].map((line) => lines.line(line));
  assert.deepEqual(out, [
    'before',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    REDACTED,
    REDACTED,
    REDACTED,
    '-----END OPENSSH PRIVATE KEY-----',
    'after ok',
  ]);
});

test('a stray BEGIN does not hide the rest of the run: a line that cannot be in a block ends it', () => {
  const lines = createLineRedactor(redactor.text);
  const out = ['-----BEGIN CERTIFICATE-----', KEY_BODY[0]!, 'build finished in 3 s', 'next line'].map((line) =>
    lines.line(line),
  );
  assert.deepEqual(out, ['-----BEGIN CERTIFICATE-----', REDACTED, 'build finished in 3 s', 'next line']);
});

test('a tail of lines cut inside a key block: the lines above its END go too', () => {
  const tail = [...KEY_BODY.slice(1), '-----END OPENSSH PRIVATE KEY-----', 'exit 0'];
  assert.deepEqual(hideKeyBlockLines(tail), [REDACTED, REDACTED, '-----END OPENSSH PRIVATE KEY-----', 'exit 0']);
});

test('output in chunks: a secret cut between two writes is redacted as the one line it makes', () => {
  const stream = new RedactedLineStream(redactor.text);
  assert.equal(stream.write('ok\nmytool --password hunt'), 'ok\n');
  assert.equal(stream.write('erX9 --verbose\nnext'), `mytool --password ${REDACTED} --verbose\n`);
  assert.equal(stream.end(), 'next');
});

test('a line without end is held only up to the bound, then let go at a blank that cuts no secret', () => {
  const stream = new RedactedLineStream(redactor.text, 100);
  const out = stream.write(`${'x'.repeat(20)} ${'x'.repeat(90)} token=${'y'.repeat(20)}`);
  assert.equal(out, `${'x'.repeat(20)} `, 'the last blank before the context kept after the cut');
  assert.equal(stream.write('z'.repeat(200)), `${'x'.repeat(90)} `);
  assert.ok(!stream.end().includes('y'.repeat(20)));
});

/** Feeds `text` (no newline until its end) to a stream with a small bound, in writes of `write` characters. */
function streamed(text: string, maxPending: number, write: number): string {
  const stream = new RedactedLineStream(redactor.text, maxPending);
  let out = '';
  for (let at = 0; at < text.length; at += write) out += stream.write(text.slice(at, at + write));
  return out + stream.end();
}

test('a secret where an overlong line is cut into pieces is still hidden, at every offset from the cut, for every shape of one line', () => {
  const leaks: string[] = [];
  for (const { shape, text, secret } of CORPUS.filter((entry) => !entry.text.includes('\n'))) {
    for (const filler of ['x', 'x ', 'x,']) {
      for (let offset = 0; offset < 160; offset++) {
        const line = `${filler.repeat(300).slice(0, 300 + offset)} ${text} ${'z'.repeat(50)} done\n`;
        const out = streamed(line, 256, 37);
        // A shape the line redactor itself reads otherwise in this line is not the cut's doing.
        if (out.includes(secret) && !redactor.text(line).includes(secret))
          leaks.push(`${shape} (filler ${JSON.stringify(filler)}, offset ${offset}): ${out.slice(280, 500)}`);
      }
    }
  }
  assert.deepEqual(leaks.slice(0, 5), []);
});

test('a line dense with secrets, where no tried cut is safe, is hidden around the cut, with the word the next write begins', () => {
  const dense = Array.from({ length: 400 }, (_, i) => `--password=p${i}w0rd`).join('');
  const out = streamed(`${dense}tail-of-it and more\n`, 256, 64);
  assert.ok(!/p\d+w0rd/.test(out), out.slice(0, 300));
  assert.ok(out.endsWith('and more\n'), out.slice(-100));
});
