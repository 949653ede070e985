import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, REDACTED } from '../../../lib/core/redact/redact.ts';
import { PLANTED, PLANTED_TEXT } from '../../helpers/planted-secrets.ts';

const redactor = createRedactor({
  env: {
    MY_SERVICE_TOKEN: PLANTED.envSecret,
    PATH: '/usr/bin',
    DEBUG_PASS: '1',
    PWD: '/srv/work/repo',
    OLDPWD: '/srv/work',
  },
});

test('hides every planted shape', () => {
  const out = redactor.text(PLANTED_TEXT);
  for (const [shape, secret] of Object.entries(PLANTED)) assert.ok(!out.includes(secret), `${shape} leaked: ${out}`);
});

test('keeps what is around a secret, so the text still says what was there', () => {
  assert.equal(
    redactor.text(`https://deploy:${PLANTED.urlPassword}@git.example.com/r`),
    `https://deploy:${REDACTED}@git.example.com/r`,
  );
  assert.equal(redactor.text(`password=${PLANTED.pairPassword}`), `password=${REDACTED}`);
  assert.equal(redactor.text(`"api_key": "${PLANTED.jsonToken}"`), `"api_key": "${REDACTED}"`);
  assert.equal(redactor.text(`Bearer ${PLANTED.bearer}`), `Bearer ${REDACTED}`);
});

test('leaves ordinary text alone: counts of tokens, short env values, plain URLs', () => {
  for (const text of [
    '{"input_tokens":1200,"output_tokens":40}',
    'max_tokens=100',
    'https://example.com/a:b',
    'risk-free task',
    'PASS 1 of 3',
    'cwd /srv/work/repo, pwd=/srv/work',
  ]) {
    assert.equal(redactor.text(text), text);
  }
});

test('is idempotent: redacting twice changes nothing more', () => {
  const once = redactor.text(PLANTED_TEXT);
  assert.equal(redactor.text(once), once);
});

test('reaches strings inside arrays and objects, and keeps other values', () => {
  const value = {
    argv: ['curl', `--token=${PLANTED.pairPassword}`],
    nested: { line: PLANTED.anthropic, pid: 7, ok: true },
    none: null,
  };
  assert.deepEqual(redactor.value(value), {
    argv: ['curl', `--token=${REDACTED}`],
    nested: { line: REDACTED, pid: 7, ok: true },
    none: null,
  });
});

test('configured extra patterns hide their whole match', () => {
  const custom = createRedactor({ patterns: ['ACME-[0-9]{6}'] });
  assert.equal(custom.text('license ACME-123456 ok'), `license ${REDACTED} ok`);
});
