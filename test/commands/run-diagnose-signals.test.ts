import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { argvLog, FAKE_CODEX_COMMAND } from '../helpers/fake-agent.ts';

/**
 * The diagnostician for every signal with a choice: REPEATED_FAILURE's evidence packet goes to
 * it when `diagnose.signals` opts in (not by default), and its guidance — redacted — is added
 * to the resumed session's prompt after the rules' own.
 */

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

async function repeatedFailure(t: { after(fn: () => void): void }, signals: string | null) {
  const state = tempDir(t);
  const repo = join(state, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const answer = {
    classification: 'REPEATED_FAILURE',
    confidence: 0.8,
    recommended_action: 'CANCEL_AND_RESUME',
    rationale: 'the same assertion fails each time',
    evidence_ids: ['evt_001'],
    guidance: `Read parser.ts line 40 before rerunning; the key ${SECRET} is not needed.`,
    requires_human_approval: false,
  };
  const script = join(state, 'diagnose.sh');
  writeFileSync(script, `#!/bin/sh\ncat > ${state}/packet.json\necho '${JSON.stringify(answer)}'\n`, { mode: 0o755 });
  const config = join(state, 'deadman.toml');
  writeFileSync(
    config,
    `[diagnose]\ncommand = ["${script}"]\ntimeout = "5s"\n${signals === null ? '' : `signals = ${signals}\n`}`,
  );
  const argvFile = join(state, 'argv.jsonl');
  const result = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      join(state, 'deadman.db'),
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--auto-recover',
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: state,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'repeat-failure',
        FAKE_AGENT_ARGV_LOG: argvFile,
      },
      cwd: repo,
    },
  );
  return { result, state, argv: argvLog(argvFile) };
}

test('diagnose.signals = ["REPEATED_FAILURE"]: its packet goes to the diagnostician, whose redacted guidance joins the resume prompt', async (t) => {
  const { result, state, argv } = await repeatedFailure(t, '["HUNG_PROCESS", "REPEATED_FAILURE"]');
  assert.equal(result.code, 0, result.stderr);
  const packet = JSON.parse(readFileSync(join(state, 'packet.json'), 'utf8')) as {
    signal: { kind: string };
    allowed_actions: string[];
  };
  assert.equal(packet.signal.kind, 'REPEATED_FAILURE');
  assert.deepEqual(packet.allowed_actions, ['CANCEL_AND_RESUME', 'OBSERVE', 'HALT_AND_ESCALATE']);
  assert.match(result.stderr, /diagnostician recommends CANCEL_AND_RESUME: the same assertion fails each time/);
  const prompt = argv[1]!.at(-1)!;
  assert.match(prompt, /^deadman interrupted you: the command `.*parser\.test\.ts.*` failed the same way/);
  assert.match(
    prompt,
    /\n\nThe diagnostician adds: Read parser\.ts line 40 before rerunning; the key \S+ is not needed\./,
  );
  assert.ok(!prompt.includes(SECRET), 'the guidance is redacted before it reaches the agent');
});

test('by default only HUNG_PROCESS is put to the diagnostician: a repeated failure is decided by the rules', async (t) => {
  const { result, state, argv } = await repeatedFailure(t, null);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(existsSync(join(state, 'packet.json')), false, 'the diagnostician was not asked');
  assert.doesNotMatch(argv[1]!.at(-1)!, /The diagnostician adds/);
});
