import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './helpers/cli.ts';
import { typescriptSources } from './helpers/lib-sources.ts';

/**
 * Small files and short functions (the project's house rule): no lib/ file over 250 lines, no
 * function over 60. Functions are found by the TypeScript parser, so arrow functions, methods,
 * constructors and accessors count the same as `function` declarations, and a function's length
 * runs from its first to its last line, nested functions included.
 */

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 60;

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunctionLike(node: ts.Node): node is FunctionLike {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** What a person would call the function: its declared name, or the variable/property it is assigned to. */
function functionName(node: FunctionLike): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText();
  return '(anonymous)';
}

/** Every way one source text breaks the size rules, one line each. */
export function sizeOffences(fileName: string, text: string): string[] {
  const offences: string[] = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) offences.push(`${fileName}: ${lines} lines (limit ${MAX_FILE_LINES})`);
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body) {
      const first = lineOf(node.getStart(source));
      const length = lineOf(node.getEnd()) - first + 1;
      if (length > MAX_FUNCTION_LINES)
        offences.push(`${fileName}:${first}: ${functionName(node)} has ${length} lines (limit ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return offences;
}

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

test('the size check names a long file, a long function, a long arrow and a long method, and passes short ones', () => {
  assert.deepEqual(sizeOffences('short.ts', `export function ok() {\n${body(58)}\n}\n`), []);
  assert.deepEqual(sizeOffences('long.ts', `export function tooLong() {\n${body(59)}\n}\n`), [
    'long.ts:1: tooLong has 61 lines (limit 60)',
  ]);
  assert.deepEqual(sizeOffences('arrow.ts', `\nconst run = async () => {\n${body(60)}\n};\n`), [
    'arrow.ts:2: run has 62 lines (limit 60)',
  ]);
  assert.deepEqual(sizeOffences('method.ts', `class A {\n  go(): void {\n${body(60)}\n  }\n}\n`), [
    'method.ts:2: go has 62 lines (limit 60)',
  ]);
  const longFile = Array.from({ length: 251 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
  assert.deepEqual(sizeOffences('big.ts', longFile), ['big.ts: 251 lines (limit 250)']);
});

test(`no lib/ file is over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
  const files = typescriptSources(join(repoRoot, 'lib'));
  assert.ok(files.length > 40, `read ${files.length} files`);
  const offences = files.flatMap((file) => sizeOffences(relative(repoRoot, file), readFileSync(file, 'utf8')));
  assert.deepEqual(offences, []);
});
