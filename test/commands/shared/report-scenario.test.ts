import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDeadman } from '../../helpers/cli.ts';

/** `deadman report <scenario>` for the shipped scenarios (before: exit 64, "not an incident id"). */

test('report repeated-failure: the scenario replayed into memory, reported like a live incident (text and --json)', async () => {
  const text = await runDeadman(['report', 'repeated-failure'], { cwd: '/' });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^incident #1 · REPEATED_FAILURE · RESOLVED\n/);
  assert.match(text.stdout, /diagnosis \(rules\) .*: CANCEL_AND_RESUME/);
  const json = await runDeadman(['report', 'repeated-failure', '--json'], { cwd: '/' });
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { kind: string; error_code: string; run: { outcome: string } };
  assert.deepEqual(
    [report.kind, report.error_code, report.run.outcome],
    ['REPEATED_FAILURE', 'repeated_failure', 'recovered_and_resumed'],
  );
});

test('every shipped scenario has a report; a name that is neither an id nor a scenario is a usage error that lists them', async () => {
  for (const [scenario, kind] of [
    ['hung-process', 'HUNG_PROCESS'],
    ['session-handoff', 'SESSION_BUDGET_RISK'],
    ['silence', 'OUTPUT_INACTIVITY'],
    ['usage-limit', 'USAGE_LIMIT'],
  ]) {
    const result = await runDeadman(['report', scenario!], { cwd: '/' });
    assert.equal(result.code, 0, `${scenario}: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`^incident #1 · ${kind} · `), scenario);
  }
  const wrong = await runDeadman(['report', 'repeated-failures'], { cwd: '/' });
  assert.equal(wrong.code, 64);
  assert.match(
    wrong.stderr,
    /"repeated-failures" is not an incident id; give a number from deadman incidents, "latest", or a shipped scenario \(.*repeated-failure/,
  );
});
