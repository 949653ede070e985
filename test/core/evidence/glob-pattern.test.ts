import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob, type GlobSegment } from '../../../lib/core/evidence/glob-pattern.ts';

function matcher(segment: GlobSegment | undefined): (name: string) => boolean {
  assert.equal(segment?.kind, 'wildcard');
  return (segment as Extract<GlobSegment, { kind: 'wildcard' }>).matches;
}

test('the literal prefix becomes the walk base', () => {
  assert.equal(compileGlob('/out/export/*.csv').base, '/out/export');
  assert.equal(compileGlob('/out//export/./*.csv').base, '/out/export');
  assert.equal(compileGlob('/*.csv').base, '/');
  assert.deepEqual(compileGlob('/out/export/a.csv'), { base: '/out/export/a.csv', segments: [] });
  const { segments } = compileGlob('/out/**/day-?/x.csv');
  assert.deepEqual(
    segments.map((s) => s.kind),
    ['globstar', 'wildcard', 'literal'],
  );
});

test('* and ? match within one name; everything else is literal', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.csv', 'export-2026-09-10.csv', true],
    ['*.csv', 'export.csv.tmp', false],
    ['*.csv', '.hidden.csv', false],
    ['.*.csv', '.hidden.csv', true],
    ['export-????-??-??.csv', 'export-2026-09-10.csv', true],
    ['export-????-??-??.csv', 'export-2026-9-10.csv', false],
    ['a.c*', 'abc', false],
    ['(x)+[y]*', '(x)+[y]z', true],
    ['(x)+[y]*', 'xxy', false],
    ['*', 'line\nbreak', true],
    ['a*b*c', 'aXXbYYc', true],
  ];
  for (const [pattern, name, expected] of cases) {
    assert.equal(
      matcher(compileGlob(`/r/${pattern}`).segments[0])(name),
      expected,
      `${pattern} vs ${JSON.stringify(name)}`,
    );
  }
});
