import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAdapter, detectAdapter, sniffAdapter } from '../../../lib/core/adapters/index.ts';
import { splitProgram } from '../../../lib/core/adapters/program.ts';
import { fixtureLines } from '../../helpers/fixtures.ts';

test('auto detection from argv, through launchers', () => {
  const cases: Array<[string[], string]> = [
    [['codex', 'exec', '--json', 'fix it'], 'codex'],
    [['/usr/bin/codex', 'exec', '--json', '-s', 'workspace-write', 'fix it'], 'codex'],
    [['node', '/opt/lib/node_modules/@openai/codex/bin/codex.js', 'exec', '--json', 'x'], 'codex'],
    [['npx', '-y', '@openai/codex@0.169.0', 'exec', '--json', 'x'], 'codex'],
    [['env', 'CODEX_HOME=/tmp/c', 'codex', 'exec', '--json', 'x'], 'codex'],
    [['/usr/bin/node', '--no-warnings', '/x/dist/lib/demo/fake-agent.js', 'codex', 'exec', '--json', 'x'], 'codex'],
    [['codex', 'exec', 'no json flag: human text'], 'generic'],
    [['codex'], 'generic'],
    [['claude', '-p', 'x', '--output-format', 'stream-json', '--verbose'], 'claude'],
    [['/home/u/.local/bin/claude', '-p', 'x', '--output-format=stream-json', '--verbose'], 'claude'],
    [['npx', '@anthropic-ai/claude-code', '-p', 'x', '--output-format', 'stream-json'], 'claude'],
    [['node', '/x/fake-agent.js', 'claude', '-p', 'x', '--output-format', 'stream-json', '--verbose'], 'claude'],
    [['claude', '-p', 'x', '--output-format', 'json'], 'generic'],
    [['make', 'test'], 'generic'],
    [['node', 'server.js', '--port', '80'], 'generic'],
    [['node'], 'generic'],
    [['env'], 'generic'],
  ];
  for (const [argv, expected] of cases) assert.equal(detectAdapter(argv, 'auto'), expected, argv.join(' '));
  assert.equal(detectAdapter(['make'], 'claude'), 'claude', 'a configured adapter wins');
});

test('the program part keeps the launcher verbatim', () => {
  assert.deepEqual(splitProgram(['node', '--no-warnings', '/x/codex.js', 'exec', '--json']), {
    program: ['node', '--no-warnings', '/x/codex.js'],
    agent: 'codex',
    args: ['exec', '--json'],
  });
  assert.deepEqual(splitProgram(['node', '/x/fake-agent.js', 'claude', '-p', 'x']), {
    program: ['node', '/x/fake-agent.js', 'claude'],
    agent: 'claude',
    args: ['-p', 'x'],
  });
  assert.deepEqual(splitProgram(['make', 'test']), { program: ['make', 'test'], agent: null, args: [] });
});

test('sniffing the first line', () => {
  assert.equal(sniffAdapter(fixtureLines('agents', 'codex-failing-command.jsonl')[0]!), 'codex');
  assert.equal(sniffAdapter(fixtureLines('agents', 'claude-bash-success.jsonl')[0]!), 'claude');
  for (const line of ['hello', '{"type":"turn.started"}', '{"type":"system","subtype":"api_retry"}', '', '{'])
    assert.equal(sniffAdapter(line), null, line);
});

test('createAdapter builds each adapter, with generic options', async () => {
  assert.equal((await createAdapter('codex')).name, 'codex');
  assert.equal((await createAdapter('claude')).name, 'claude');
  const generic = await createAdapter('generic', { sessionPattern: 'id=(\\w+)' });
  assert.deepEqual(generic.parseLine('id=abc').events, [{ type: 'session', sessionId: 'abc' }]);
});
