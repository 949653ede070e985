import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONTAINER_COMMANDS,
  findArgv,
  headArgv,
  realpathArgv,
  statArgv,
  tailArgv,
  clockArgv,
} from '../../../lib/core/evidence/container-commands.ts';
import { compileGlob } from '../../../lib/core/evidence/glob-pattern.ts';

test('every command is an argv from the read-only set, its operands absolute paths after the options', () => {
  const argvs = [
    clockArgv(),
    findArgv(compileGlob('/out/*.csv')),
    findArgv(compileGlob('/out/**/x.csv')),
    statArgv(['/out/a.csv', '/out/b.csv']),
    realpathArgv(['/out', '/out/a.csv']),
    headArgv('/out/a.csv', 1024),
    tailArgv('/out/a.csv', 1024),
  ];
  for (const argv of argvs) assert.ok((CONTAINER_COMMANDS as readonly string[]).includes(argv[0]), argv.join(' '));
  assert.deepEqual([...CONTAINER_COMMANDS].sort(), ['date', 'find', 'head', 'realpath', 'stat', 'tail']);
  assert.deepEqual(findArgv(compileGlob('/out/*/day-?.csv')), ['find', '-H', '/out', '-maxdepth', '2', '-print0']);
  assert.deepEqual(findArgv(compileGlob('/out/**/x.csv')), ['find', '-H', '/out', '-print0'], '** has no depth bound');
  assert.deepEqual(
    statArgv(['/out/a.csv', '/out/b\n.csv']),
    ['stat', '-L', '-c', '%f %s %Y %n', '/out/a.csv'],
    'a name with a line break is left out',
  );
  assert.deepEqual(headArgv('/out/a.csv', 0), ['head', '-c', '0', '/out/a.csv']);
});
