import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesIn, readJsonFile, readOrNull } from '../../../lib/io/files/quiet-reads.ts';
import { tempDir } from '../../helpers/cli.ts';

test('a missing or unreadable file or directory reads as null, undefined or no names', (t) => {
  const dir = tempDir(t);
  const missing = join(dir, 'missing');
  assert.equal(readOrNull(missing), null);
  assert.equal(readJsonFile(missing), undefined);
  assert.deepEqual(namesIn(missing), []);
  // A directory where a file is expected, and a file where a directory is.
  assert.equal(readOrNull(dir), null);
  writeFileSync(join(dir, 'plain'), 'not json');
  assert.deepEqual(namesIn(join(dir, 'plain')), []);
  assert.equal(readJsonFile(join(dir, 'plain')), undefined);
});

test('what is there is read: text, JSON (null too) and the names in a directory', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.json'), '{"pid": 7}');
  writeFileSync(join(dir, 'null.json'), 'null');
  mkdirSync(join(dir, 'sub'));
  assert.equal(readOrNull(join(dir, 'a.json')), '{"pid": 7}');
  assert.deepEqual(readJsonFile(join(dir, 'a.json')), { pid: 7 });
  assert.equal(readJsonFile(join(dir, 'null.json')), null);
  assert.deepEqual(namesIn(dir).sort(), ['a.json', 'null.json', 'sub']);
});
