import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost, parseListenAddress } from '../../../lib/core/status/listen-address.ts';

test('parseListenAddress: HOST:PORT, [IPv6]:PORT, a bare PORT on loopback; anything else is one line', () => {
  assert.deepEqual(parseListenAddress('127.0.0.1:9464'), { host: '127.0.0.1', port: 9464, loopback: true });
  assert.deepEqual(parseListenAddress('[::1]:9464'), { host: '::1', port: 9464, loopback: true });
  assert.deepEqual(parseListenAddress('9464'), { host: '127.0.0.1', port: 9464, loopback: true });
  assert.deepEqual(parseListenAddress('0.0.0.0:8080'), { host: '0.0.0.0', port: 8080, loopback: false });
  assert.deepEqual(parseListenAddress('[::]:8080'), { host: '::', port: 8080, loopback: false });
  for (const bad of ['', 'localhost', ':', '127.0.0.1:', '127.0.0.1:65536', '::1:80', 'a:b:80', '127.0.0.1:80x']) {
    const parsed = parseListenAddress(bad);
    assert.ok('problem' in parsed, bad);
    assert.match(parsed.problem, /^--health-listen ".*": give HOST:PORT/);
  }
});

test('isLoopbackHost: 127.0.0.0/8, ::1, localhost; not the wildcard, not a pod address', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1'])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['0.0.0.0', '::', '10.0.0.7', '128.0.0.1', 'example.com', '127.example.com'])
    assert.equal(isLoopbackHost(host), false, host);
});
