import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectBudgetRisk } from '../../../lib/core/detect/session-budget.ts';
import { taskOf, withTask } from '../../../lib/core/adapters/replace-task.ts';
import { readCodexCommand } from '../../../lib/core/adapters/codex-command.ts';
import { renderHandoff } from '../../../lib/core/incident/handoff.ts';

test('SESSION_BUDGET_RISK: at or over a limit that is on; off at 0 and without cost telemetry, never estimated', () => {
  const budget = { tokens: 1_000, costUsd: 2 };
  assert.equal(detectBudgetRisk({ tokens: 999, costUsd: 1.99 }, budget), null);
  assert.match(
    detectBudgetRisk({ tokens: 1_000, costUsd: null }, budget)!.message,
    /1000 tokens, at or over budget\.tokens \(1000\)/,
  );
  assert.match(
    detectBudgetRisk({ tokens: 0, costUsd: 2.5 }, budget)!.message,
    /cost \$2\.50, at or over budget\.cost_usd \(\$2\.00\)/,
  );
  assert.equal(
    detectBudgetRisk({ tokens: 10 ** 9, costUsd: 10 ** 6 }, { tokens: 0, costUsd: 0 }),
    null,
    'both limits off',
  );
  assert.equal(
    detectBudgetRisk({ tokens: 0, costUsd: null }, { tokens: 0, costUsd: 0.01 }),
    null,
    'no cost reported: no estimate',
  );
});

test('the fresh command keeps every option and replaces only the task', () => {
  const codex = ['codex', 'exec', '--json', '-s', 'workspace-write', 'fix it'];
  assert.equal(taskOf(codex, 'codex'), 'fix it');
  assert.deepEqual(withTask(codex, 'codex', 'fix it, with the handoff'), [
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    'fix it, with the handoff',
  ]);
  const claude = ['claude', '-p', 'fix it', '--output-format', 'stream-json', '--verbose', '--model', 'm'];
  assert.deepEqual(withTask(claude, 'claude', 'new'), [
    'claude',
    '-p',
    'new',
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    'm',
  ]);
  assert.equal(withTask(['make', 'all'], 'generic', 'x'), null);
  assert.equal(
    withTask(['codex', 'exec', '--json', '-'], 'codex', 'x'),
    null,
    'a prompt from stdin cannot be replaced',
  );
});

test('the handoff: task, files changed, commands and results, the last failure, open questions, the next step', () => {
  const text = renderHandoff({
    name: 'job',
    task: 'ship it',
    reason: 'over budget',
    filesChanged: ['/repo/src/parser.ts', '/repo/test/parser.test.ts'],
    attempts: [
      { command: 'npm test', exitCode: 1, outputTail: 'a\nFAIL x', ok: false },
      { command: '(turn)', exitCode: null, outputTail: '', ok: true, turn: true },
      { command: 'git status', exitCode: 0, outputTail: 'clean', ok: true },
    ],
  });
  assert.equal(
    text,
    [
      '# Handoff: job',
      '',
      'deadman ended the previous session: over budget. This is a fresh session; continue the task from here.',
      '',
      '## Task',
      'ship it',
      '',
      '## What was done (from the event log)',
      'Files changed:',
      '- `/repo/src/parser.ts`',
      '- `/repo/test/parser.test.ts`',
      '',
      'Commands run:',
      '- `npm test` → failed (exit 1)',
      '- `git status` → ok',
      '- turns completed: 1',
      '',
      '## Last failure',
      '`npm test` (exit 1):\n\n```\na\nFAIL x\n```',
      '',
      '## Open questions',
      '- Did the commands above change files besides those listed? Check `git status` and `git diff` before going on.',
      '',
      '## Next step',
      'Fix what made `npm test` fail, without repeating work already done.',
      '',
    ].join('\n'),
  );
  const noEdits = renderHandoff({
    name: 'job',
    task: 'ship it',
    reason: 'over budget',
    attempts: [],
    filesChanged: [],
  });
  assert.match(
    noEdits,
    /Files changed:\n- none by the agent's edit tools \(shell commands may still have changed some\)\n\nCommands run:\n- no shell commands were recorded\n/,
  );
});

test('which Codex command lines resume a session (their first usage total is not all theirs)', () => {
  const table: Array<[string[], { sessionId: string | null } | null]> = [
    [['codex', 'exec', '--json', 'fix it'], null],
    [['codex', 'exec', '--json', '-s', 'workspace-write', 'resume', 'abc', 'go on'], { sessionId: 'abc' }],
    [['codex', 'exec', '--json', 'resume', '--last', 'go on'], { sessionId: null }],
    [['codex', 'exec', '--json', '-C', 'resume', 'fix it'], null],
  ];
  for (const [argv, resumes] of table) assert.deepEqual(readCodexCommand(argv)?.resumes, resumes, argv.join(' '));
});
