import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { DETECTION_ORDER, SIGNAL_KINDS, signalRow } from '../lib/core/signals/registry.ts';
import { ACTIONS, type RecoveryAction } from '../lib/core/signals/actions.ts';
import { repoRoot } from './helpers/cli.ts';
import { typescriptSources } from './helpers/lib-sources.ts';

/**
 * docs/design.md shows the signal registry as the code has it: the table of kinds, and in "How
 * to add a signal" the lists of kinds, detectors and actions; the pipeline's detect and
 * diagnose lines name every detector and action. On a change, paste what the failure prints.
 */

const ACTION_NAMES = Object.keys(ACTIONS) as RecoveryAction[];

export function signalTableMarkdown(): string {
  const lines = [
    '| kind | raised by | diagnosis | a diagnostician may answer | stall | the pass ends as | next pass | error code | severity |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const kind of SIGNAL_KINDS) {
    const row = signalRow(kind)!;
    const end =
      row.end === undefined
        ? ''
        : row.end === 'verdict'
          ? "the agent's verdict"
          : `${row.end.outcome}, ${row.end.exitCode}`;
    const consult = Object.entries(row.consult ?? {})
      .map(([answer, action]) => (answer === action ? answer : `${answer} (${action})`))
      .join(', ');
    lines.push(
      `| ${kind} | ${row.raisedBy} | ${row.diagnosis.action} | ${consult} | ${row.stall} | ${end} | ${row.nextPass ?? ''} | ${row.errorCode} | ${row.severity} |`,
    );
  }
  return lines.join('\n');
}

export function kindListMarkdown(): string {
  return SIGNAL_KINDS.map((kind) => `- \`${kind}\`: ${signalRow(kind)!.means}.`).join('\n');
}

export function actionListMarkdown(): string {
  return ACTION_NAMES.map((action) => `- \`${action}\`: ${ACTIONS[action].does}.`).join('\n');
}

/** The detectors in the order the supervisor runs them. */
export const detectorLine = `Detectors, in the order each tick runs them: ${DETECTION_ORDER.join(', ')}.`;

/** Every action, as the diagnose step lists them. */
export const diagnoseLine = `${ACTION_NAMES.slice(0, -1)
  .map((a) => `\`${a}\``)
  .join(', ')} or \`${ACTION_NAMES.at(-1)}\``;

const design = readFileSync(join(repoRoot, 'docs', 'design.md'), 'utf8');
const howTo = design.slice(design.indexOf('## How to add a signal'));

test('docs/design.md shows the signal registry as the code has it', () => {
  assert.ok(design.includes(signalTableMarkdown()), `docs/design.md should contain:\n${signalTableMarkdown()}`);
});

test('"How to add a signal" lists every kind, detector and action the registry has', () => {
  assert.ok(design.includes('## How to add a signal'));
  for (const [what, text] of [
    ['kinds', kindListMarkdown()],
    ['detectors', detectorLine],
    ['actions', actionListMarkdown()],
  ] as const) {
    assert.ok(howTo.includes(text), `"How to add a signal" should list the ${what}:\n${text}`);
  }
});

test("the pipeline's detect and diagnose steps name every detector and action", () => {
  const pipeline = design.slice(0, design.indexOf('## The engine'));
  assert.ok(pipeline.includes(diagnoseLine), `the diagnose step should list: ${diagnoseLine}`);
  const engine = design.slice(design.indexOf('## The engine'), design.indexOf('## Choices'));
  assert.ok(engine.includes(detectorLine), `the Detectors paragraph should say: ${detectorLine}`);
});

/**
 * The lib files that name each kind in code: as an identifier, or as a string literal that is
 * the kind (what code compares, stores or passes) or quotes it as SQL does. Comments and prose in
 * messages are not counted: they tell a person, they decide nothing. A kind that is also an
 * action's name (HALT_AND_ESCALATE) is named as the action in actions.ts and the other rows'
 * `consult`: in lib/core/signals/ only its row and registry.ts count for it.
 */
export function filesNamingKinds(): Map<string, string[]> {
  const named = new Map<string, string[]>(SIGNAL_KINDS.map((kind) => [kind, []]));
  for (const path of typescriptSources(join(repoRoot, 'lib'))) {
    const file = relative(join(repoRoot, 'lib'), path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const found = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && named.has(node.text)) found.add(node.text);
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        for (const kind of SIGNAL_KINDS) if (node.text === kind || node.text.includes(`'${kind}'`)) found.add(kind);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    const rowOf = (kind: string) =>
      source.statements.some(
        (s) => ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => d.name.getText() === kind),
      );
    for (const kind of found) {
      const asAction =
        kind in ACTIONS && file.startsWith('core/signals/') && file !== 'core/signals/registry.ts' && !rowOf(kind);
      if (!asAction) named.get(kind)!.push(file);
    }
  }
  return named;
}

test('every signal kind is named in at most 3 lib files: its row, the registry and the one place that raises or reads it', () => {
  const over = [...filesNamingKinds()].filter(([, files]) => files.length > 3);
  assert.deepEqual(
    over.map(([kind, files]) => `${kind}: ${files.join(', ')}`),
    [],
    'move what these files know of a kind into its row (lib/core/signals/)',
  );
});
