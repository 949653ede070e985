import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newMarker, withSessionId, type Marker } from '../../../lib/core/revive/marker.ts';
import { buildResumeArgv, reviveMessage } from '../../../lib/core/revive/resume-argv.ts';
import { commandIdentity } from '../../../lib/core/revive/command-identity.ts';
import type { AdapterName } from '../../../lib/core/adapters/agent-events.ts';

const ID = '01a23013-5833-7931-a33c-8c973fd6219b';
const taskOf = (adapter: AdapterName, argv: string[]) => commandIdentity(adapter, argv, '/repo');

function markerFor(adapter: AdapterName, argv: string[]): Marker {
  return withSessionId(
    newMarker({ name: 'a', adapter, argv, cwd: '/repo', owner: { pid: 2, startTime: 1 }, now: 0 }),
    ID,
    0,
  );
}

test('codex: every option goes again before "resume", the launcher is kept, images are not repeated', () => {
  const cases: Array<[string[], string[]]> = [
    [
      ['/usr/bin/codex', 'exec', '--json', '-s', 'workspace-write', '-C', '/repo', 'fix it'],
      ['/usr/bin/codex', 'exec', '--json', '-s', 'workspace-write', '-C', '/repo', 'resume', ID, 'MSG'],
    ],
    [
      [
        'node',
        '/opt/codex/bin/codex.js',
        'exec',
        '-m',
        'gpt-5',
        '-c',
        'model_reasoning_effort=high',
        '--add-dir',
        '/data',
        '-p',
        'ci',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '--json',
        '-i',
        'shot.png',
        '-o',
        '/tmp/last.txt',
        'do it',
      ],
      [
        'node',
        '/opt/codex/bin/codex.js',
        'exec',
        '-m',
        'gpt-5',
        '-c',
        'model_reasoning_effort=high',
        '--add-dir',
        '/data',
        '-p',
        'ci',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '--json',
        '-o',
        '/tmp/last.txt',
        'resume',
        ID,
        'MSG',
      ],
    ],
    [
      ['codex', 'exec', '--sandbox=danger-full-access', 'task'],
      ['codex', 'exec', '--json', '--sandbox=danger-full-access', 'resume', ID, 'MSG'],
    ],
    [
      ['codex', '-c', 'x=1', 'exec', '--json', 'resume', 'old-id', 'again'],
      ['codex', '-c', 'x=1', 'exec', '--json', 'resume', ID, 'MSG'],
    ],
    [
      ['node', '/x/fake-agent.js', 'codex', 'exec', '--json', '-s', 'read-only', 'hi'],
      ['node', '/x/fake-agent.js', 'codex', 'exec', '--json', '-s', 'read-only', 'resume', ID, 'MSG'],
    ],
  ];
  for (const [argv, expected] of cases)
    assert.deepEqual(buildResumeArgv(markerFor('codex', argv), { message: 'MSG' }), expected, argv.join(' '));
  assert.equal(taskOf('codex', ['codex', 'exec', '--json', 'resume', 'old-id', 'again']).task, 'again');
  assert.equal(taskOf('codex', ['codex', 'exec', '--json', 'resume', '--last', 'more']).task, 'more');
  assert.equal(taskOf('codex', ['codex', 'exec', '--json', '-']).task, null, 'a prompt from stdin is not known');
  assert.equal(taskOf('codex', ['codex', 'exec', '--json', '--', '-starts with a dash']).task, '-starts with a dash');
});

test('claude: -p message, --resume id, stream-json, then the original options', () => {
  const cases: Array<[string[], string[]]> = [
    [
      [
        'claude',
        '-p',
        'fix it',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'opus',
        '--permission-mode',
        'acceptEdits',
        '--max-turns',
        '30',
      ],
      [
        'claude',
        '-p',
        'MSG',
        '--resume',
        ID,
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'opus',
        '--permission-mode',
        'acceptEdits',
        '--max-turns',
        '30',
      ],
    ],
    [
      [
        '/home/u/.local/bin/claude',
        '--print',
        '--output-format=stream-json',
        '--verbose',
        '--session-id',
        'abc',
        '--allowedTools',
        'Bash',
        'Edit',
        '--add-dir',
        '/d',
        '--',
        'the task',
      ],
      [
        '/home/u/.local/bin/claude',
        '-p',
        'MSG',
        '--resume',
        ID,
        '--output-format',
        'stream-json',
        '--verbose',
        '--allowedTools',
        'Bash',
        'Edit',
        '--add-dir',
        '/d',
      ],
    ],
    [
      [
        'claude',
        '-p',
        '--resume',
        'old',
        'go on',
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
      ],
      [
        'claude',
        '-p',
        'MSG',
        '--resume',
        ID,
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
      ],
    ],
    [
      ['node', '/x/fake-agent.js', 'claude', '-p', 'hi', '--output-format', 'stream-json', '--verbose'],
      [
        'node',
        '/x/fake-agent.js',
        'claude',
        '-p',
        'MSG',
        '--resume',
        ID,
        '--output-format',
        'stream-json',
        '--verbose',
      ],
    ],
  ];
  for (const [argv, expected] of cases)
    assert.deepEqual(buildResumeArgv(markerFor('claude', argv), { message: 'MSG' }), expected, argv.join(' '));
  assert.equal(taskOf('claude', cases[1]![0]).task, 'the task');
  assert.equal(taskOf('claude', cases[2]![0]).task, 'go on');
});

test('revive.command template: placeholders are replaced inside arguments, never re-expanded, never split', () => {
  const marker = { ...markerFor('generic', ['my-agent', 'run']), cwd: '/srv/{message}' };
  const argv = buildResumeArgv(marker, {
    message: 'two words; rm -rf / {cwd}',
    template: ['my-agent', '--session={session_id}', '--dir', '{cwd}', '{message}'],
  });
  assert.deepEqual(argv, ['my-agent', `--session=${ID}`, '--dir', '/srv/{message}', 'two words; rm -rf / {cwd}']);
});

test('buildResumeArgv refuses what decideRevive refuses', () => {
  assert.throws(
    () => buildResumeArgv({ ...markerFor('codex', ['codex', 'exec', 'x']), sessionId: '-rf' }, { message: 'm' }),
    /not a plain id/,
  );
  assert.throws(() => buildResumeArgv(markerFor('generic', ['make']), { message: 'm' }), /set revive.command/);
});

test('the revive message carries the original task, cut when huge; {task} places it', () => {
  const message = reviveMessage('fix the flaky test');
  // Without a task the message is the default one alone.
  const DEFAULT_REVIVE_MESSAGE = reviveMessage(null);
  assert.ok(message.startsWith(DEFAULT_REVIVE_MESSAGE));
  assert.match(DEFAULT_REVIVE_MESSAGE, /cut off by a process exit/);
  assert.match(DEFAULT_REVIVE_MESSAGE, /Continue the interrupted task from where it stopped/);
  assert.match(DEFAULT_REVIVE_MESSAGE, /unknown outcomes: inspect .* before retrying/);
  assert.ok(message.endsWith('The original task was:\nfix the flaky test'));
  assert.equal(reviveMessage('T $& $1', 'Resume. Task: {task}. Go.'), 'Resume. Task: T $& $1. Go.');
  assert.ok(reviveMessage('x'.repeat(200_000)).length < 40_000);
});
