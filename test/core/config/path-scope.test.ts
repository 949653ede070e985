import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseName, checkLexicalScope, checkPathScope } from '../../../lib/core/config/path-scope.ts';

test('lexical scope: inside the root by whole segments only', () => {
  const cases: Array<[root: string, path: string, inside: boolean, reasonPart?: string]> = [
    ['/out/export', '/out/export/a.csv', true],
    ['/out/export', '/out/export/deep/er/a.csv', true],
    ['/out/export', '/out/export', true],
    ['/out/export/', '/out/export//a.csv', true],
    ['/out/export', '/out/export/./a.csv', true],
    ['/out/export', '/out/export/*.csv', true],
    ['/out/export', '/out/export/**/x-?.csv', true],
    ['/', '/anything/at/all', true],
    ['/out/export', '/out/export-secrets/a.csv', false, 'outside root /out/export'],
    ['/out/export', '/out/exportx', false, 'outside root'],
    ['/out/export', '/out/export*/a.csv', false, 'outside root'],
    ['/out/export', '/out', false, 'outside root'],
    ['/out/export', '/etc/passwd', false, 'outside root'],
    ['/out/export', '/out/export/../secrets/a.csv', false, 'contains ".."'],
    ['/out/export', '/out/export/sub/../../x', false, 'contains ".."'],
    ['/out/export', 'out/export/a.csv', false, 'is relative'],
    ['/out/export', 'a.csv', false, 'is relative'],
    ['/out/export', '', false, 'is relative'],
    ['out/export', '/out/export/a.csv', false, 'root out/export is relative'],
    ['/out/../etc', '/etc/passwd', false, 'root /out/../etc contains ".."'],
  ];
  for (const [root, path, inside, reasonPart] of cases) {
    const verdict = checkLexicalScope(root, path);
    assert.equal(verdict.inside, inside, `${root} ∋ ${path}`);
    if (!verdict.inside) assert.ok(verdict.reason.includes(reasonPart!), `${path}: ${verdict.reason}`);
  }
});

test('resolved scope: a symlink may not lead out of the resolved root', () => {
  const cases: Array<[facts: Parameters<typeof checkPathScope>[0], inside: boolean, reason?: string]> = [
    [
      {
        root: '/out/export',
        path: '/out/export/a.csv',
        resolvedRoot: '/out/export',
        resolvedPath: '/out/export/a.csv',
      },
      true,
    ],
    [
      {
        root: '/out/export',
        path: '/out/export/link.csv',
        resolvedRoot: '/out/export',
        resolvedPath: '/out/export/real/a.csv',
      },
      true,
    ],
    // The root itself is a symlink: both ends resolved, still inside.
    [
      {
        root: '/out/export',
        path: '/out/export/a.csv',
        resolvedRoot: '/data/export',
        resolvedPath: '/data/export/a.csv',
      },
      true,
    ],
    [
      { root: '/out/export', path: '/out/export/link.csv', resolvedRoot: '/out/export', resolvedPath: '/etc/passwd' },
      false,
      'link.csv resolves to /etc/passwd, outside root /out/export',
    ],
    [
      {
        root: '/out/export',
        path: '/out/export/link.csv',
        resolvedRoot: '/out/export',
        resolvedPath: '/out/export-secrets/k',
      },
      false,
      'link.csv resolves to /out/export-secrets/k, outside root /out/export',
    ],
    // Resolved against the lexical root although the root is a symlink elsewhere: escapes.
    [
      {
        root: '/out/export',
        path: '/out/export/a.csv',
        resolvedRoot: '/data/export',
        resolvedPath: '/out/export/a.csv',
      },
      false,
      'outside root',
    ],
    // The lexical rules apply first.
    [
      { root: '/out/export', path: '/out/export/../x', resolvedRoot: '/out/export', resolvedPath: '/out/export/x' },
      false,
      'contains ".."',
    ],
    [
      { root: '/out/export', path: '/out/export/a', resolvedRoot: '/out/export', resolvedPath: 'a' },
      false,
      'not a resolved absolute path',
    ],
    [
      {
        root: '/out/export',
        path: '/out/export/a',
        resolvedRoot: '/out/export',
        resolvedPath: '/out/export/../../etc',
      },
      false,
      'not a resolved absolute path',
    ],
  ];
  for (const [facts, inside, reason] of cases) {
    const verdict = checkPathScope(facts);
    assert.equal(verdict.inside, inside, JSON.stringify(facts));
    if (!verdict.inside) assert.ok(verdict.reason.includes(reason!), verdict.reason);
  }
});

test('baseName', () => {
  assert.equal(baseName('/out/export/a.csv'), 'a.csv');
  assert.equal(baseName('/out/export/'), 'export');
  assert.equal(baseName('/'), '/');
  assert.equal(baseName('rel'), 'rel');
});
