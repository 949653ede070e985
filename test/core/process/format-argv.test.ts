import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatArgv } from '../../../lib/core/process/format-argv.ts';

test('plain words stay bare; shell quoting can be pasted, JSON quoting keeps control characters visible', () => {
  assert.equal(
    formatArgv(['codex', 'exec', '--json', 'a=b,c:d/e.f@g%h+i'], { quoting: 'shell' }),
    'codex exec --json a=b,c:d/e.f@g%h+i',
  );
  assert.equal(formatArgv(['sh', '-c', "it's $HOME"], { quoting: 'shell' }), "sh -c 'it'\\''s $HOME'");
  assert.equal(formatArgv(['echo', 'two\nlines', ''], { quoting: 'json' }), 'echo "two\\nlines" ""');
});

test('long arguments are cut before quoting, so the cut one is always quoted', () => {
  assert.equal(formatArgv(['x'.repeat(5), 'abcdefgh'], { quoting: 'json', maxArgLength: 5 }), 'xxxxx "abcde…"');
  assert.equal(formatArgv(['abcdefgh'], { quoting: 'shell', maxArgLength: 3 }), "'abc…'");
});
