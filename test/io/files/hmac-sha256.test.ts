import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { hmacSha256, sameBytes, sha256 } from '../../../lib/io/files/hmac-sha256.ts';

/**
 * The plain-JavaScript HMAC behind every marker and cached config MAC (lib/io/files/hmac-sha256.ts)
 * answers as node:crypto does: every message length across the padding's edges (55/56 and 64
 * bytes, several blocks), keys shorter, equal to and longer than a block, and text beyond ASCII.
 */

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

test('SHA-256 and HMAC-SHA256 give node:crypto answers for every message length up to 300 bytes', () => {
  for (let length = 0; length <= 300; length++) {
    const message = randomBytes(length);
    assert.equal(hex(sha256(message)), createHash('sha256').update(message).digest('hex'), `${length} bytes`);
    for (const keyLength of [0, 1, 32, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      assert.equal(
        hex(hmacSha256(key, message)),
        createHmac('sha256', key).update(message).digest('hex'),
        `${length} bytes, key of ${keyLength}`,
      );
    }
  }
});

test('a large message and UTF-8 text hash as node:crypto hashes them', () => {
  const key = randomBytes(32);
  const large = randomBytes(1024 * 1024 + 3);
  assert.equal(hex(hmacSha256(key, large)), createHmac('sha256', key).update(large).digest('hex'));
  const text = '{"task":"résumé — 続けて 🚀"}';
  assert.equal(hex(hmacSha256(key, Buffer.from(text))), createHmac('sha256', key).update(text).digest('hex'));
  assert.equal(hex(sha256(Buffer.from('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('two MACs are the same only when every byte is', () => {
  const mac = hmacSha256(randomBytes(32), Buffer.from('marker'));
  assert.equal(sameBytes(mac, mac.slice()), true);
  for (const at of [0, 15, 31]) {
    const changed = mac.slice();
    changed[at] = changed[at]! ^ 1;
    assert.equal(sameBytes(mac, changed), false, `byte ${at}`);
  }
  assert.equal(sameBytes(mac, mac.subarray(0, 31)), false);
});
