import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interactiveResumeArgv, isInteractiveCommand } from '../../../lib/core/revive/interactive-resume.ts';
import {
  decideRevive,
  markInterrupted,
  newMarker,
  withSessionId,
  type Marker,
} from '../../../lib/core/revive/marker.ts';
import { buildResumeArgv } from '../../../lib/core/revive/resume-argv.ts';
import { planRevives } from '../../../lib/core/revive/revive-plan.ts';

const NOW = Date.UTC(2026, 11, 2, 9);
const ID = '01a23013-bbbb-7e73-a729-000000000001';

function interruptedAgent(adapter: 'codex' | 'claude', argv: string[]): Marker {
  return markInterrupted(
    withSessionId(
      newMarker({ name: 'tui', adapter, argv, cwd: '/w', owner: null, now: NOW - 60_000 }),
      ID,
      NOW - 60_000,
    ),
    'failed: the agent exited 137',
    NOW - 60_000,
  );
}

test('the interactive forms: Codex without exec, Claude Code without -p', () => {
  const cases: Array<[Parameters<typeof isInteractiveCommand>, boolean]> = [
    [['codex', ['codex', '-m', 'o3', 'fix it']], true],
    [['codex', ['node', '/x/fake.js', 'codex']], true],
    [['codex', ['codex', 'exec', '--json', 'fix it']], false],
    [['claude', ['claude', '--model', 'opus']], true],
    [['claude', ['claude', '-p', 'fix it', '--output-format', 'stream-json']], false],
    [['claude', ['npx', '@anthropic-ai/claude-code', '--print', 'x']], false],
    [['generic', ['bash', 'job.sh']], false],
  ];
  for (const [args, expected] of cases) assert.equal(isInteractiveCommand(...args), expected, args[1].join(' '));
});

test('Codex: the TUI reopened on the session, the options before resume, no prompt, no images', () => {
  assert.deepEqual(
    interactiveResumeArgv(
      'codex',
      ['codex', '-m', 'o3', '-s', 'workspace-write', '-i', 'shot.png', 'fix the tests'],
      ID,
    ),
    ['codex', '-m', 'o3', '-s', 'workspace-write', 'resume', ID],
  );
  assert.deepEqual(
    interactiveResumeArgv(
      'codex',
      ['npx', '@openai/codex@0.169.0', '--ask-for-approval', 'never', 'resume', 'older-id'],
      ID,
    ),
    ['npx', '@openai/codex@0.169.0', '--ask-for-approval', 'never', 'resume', ID],
  );
  assert.deepEqual(interactiveResumeArgv('codex', ['node', '/x/fake.js', 'codex'], ID), [
    'node',
    '/x/fake.js',
    'codex',
    'resume',
    ID,
  ]);
  assert.equal(interactiveResumeArgv('codex', ['/opt/bin/wrapper'], ID), null, 'no codex program to resume');
});

test('Claude Code: --resume with the options repeated, the prompt and session choice not', () => {
  assert.deepEqual(interactiveResumeArgv('claude', ['claude', '--model', 'opus', '--continue', 'fix the tests'], ID), [
    'claude',
    '--resume',
    ID,
    '--model',
    'opus',
  ]);
  assert.deepEqual(interactiveResumeArgv('claude', ['claude', '--resume', 'older-id', '--add-dir', '/a', '/b'], ID), [
    'claude',
    '--resume',
    ID,
    '--add-dir',
    '/a',
    '/b',
  ]);
});

test('under deadman agent an interrupted interactive session is resumed as the TUI; as a headless command it could not be', () => {
  const marker = interruptedAgent('codex', ['codex', '-m', 'o3', 'fix it']);
  const settings = { now: NOW, livePid: null, maxAgeMs: 0, maxRevives: 3 };
  assert.deepEqual(decideRevive(marker, { ...settings, interactive: true }), {
    revive: true,
    sessionId: ID,
    attempt: 1,
    budget: 3,
  });
  assert.deepEqual(
    buildResumeArgv(marker, { message: 'ignored', template: ['my-agent', '{session_id}'], interactive: true }),
    ['codex', '-m', 'o3', 'resume', ID],
  );
  assert.deepEqual(decideRevive(marker, settings), {
    revive: false,
    outcome: 'fresh',
    reason: 'the Codex command line has no "exec" to resume',
  });
});

test('deadman revive (no terminal) never resumes an interactive session: it says how to', () => {
  const codex = interruptedAgent('codex', ['codex', '-m', 'o3', 'fix it']);
  const claude = interruptedAgent('claude', ['claude', '--model', 'opus']);
  const spent = { ...interruptedAgent('claude', ['claude']), reviveCount: 3 };
  const headless = interruptedAgent('claude', [
    'claude',
    '-p',
    'fix it',
    '--output-format',
    'stream-json',
    '--verbose',
  ]);
  const plan = planRevives(
    [codex, claude, spent, headless].map((marker) => ({ marker, livePid: null })),
    [],
    { now: NOW, maxAgeMs: 0, maxRevives: 3 },
  );
  assert.deepEqual(
    plan.map((step) => step.action),
    ['skip', 'skip', 'skip', 'revive'],
  );
  assert.equal(
    plan[0]!.action === 'skip' && plan[0]!.reason,
    "an interactive session: resumed only in a terminal, by its command under deadman agent (deadman agent -- codex -m o3 'fix it')",
  );
  assert.match(plan[2]!.action === 'skip' ? plan[2]!.reason : '', /^an interactive session/);
});
