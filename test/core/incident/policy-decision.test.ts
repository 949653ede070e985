import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from '../../../lib/core/incident/policy-decision.ts';
import { diagnose } from '../../../lib/core/incident/default-diagnosis.ts';

test('a hung descendant is killed only with auto-recover', () => {
  const diagnosis = diagnose('HUNG_PROCESS');
  assert.equal(diagnosis.action, 'TERMINATE_DESCENDANT_PROCESS');
  assert.equal(decide({ recommended: diagnosis.action, autoRecover: false }).verdict, 'await_approval');
  assert.match(decide({ recommended: diagnosis.action, autoRecover: false }).reason, /--auto-recover/);
  assert.equal(decide({ recommended: diagnosis.action, autoRecover: true }).verdict, 'allow');
});

test('a hung target whose owner is unproven waits for a person, even with auto-recover', () => {
  const unproven = decide({
    recommended: 'TERMINATE_DESCENDANT_PROCESS',
    autoRecover: true,
    targetUnproven: 'born before open tool call m1, whose command is unknown',
  });
  assert.equal(unproven.verdict, 'await_approval');
  assert.match(
    unproven.reason,
    /may be a helper the agent started.*born before open tool call m1.*a person must decide/,
  );
  assert.equal(
    decide({ recommended: 'TERMINATE_DESCENDANT_PROCESS', autoRecover: true, targetUnproven: null }).verdict,
    'allow',
  );
});

test('whole-run stalls go to the stall policy whatever auto-recover says', () => {
  for (const kind of ['OUTPUT_INACTIVITY', 'EVIDENCE_STALE', 'TIMEOUT', 'NOT_READY'] as const) {
    assert.equal(diagnose(kind).action, 'STALL_POLICY', kind);
    assert.equal(decide({ recommended: 'STALL_POLICY', autoRecover: false }).verdict, 'allow');
  }
  assert.equal(diagnose('EVIDENCE_FAILED').action, 'REPORT');
});

test('an action fingerprint is never reused: a course-changing action already taken is denied, with a reason', () => {
  const table = [
    { recommended: 'CANCEL_AND_RESUME', verdict: 'deny' },
    { recommended: 'CHECKPOINT_AND_RESPAWN', verdict: 'deny' },
    { recommended: 'TERMINATE_DESCENDANT_PROCESS', verdict: 'deny' },
    // Waiting for a reset, ending a finished run and halting repeat nothing that failed.
    { recommended: 'WAIT_FOR_USAGE_RESET', verdict: 'allow' },
    { recommended: 'END_FINISHED_RUN', verdict: 'allow' },
    { recommended: 'HALT_AND_ESCALATE', verdict: 'allow' },
    { recommended: 'OBSERVE', verdict: 'await_approval' },
  ] as const;
  for (const row of table) {
    const taken = decide({ recommended: row.recommended, autoRecover: true, sessionId: 's1', alreadyTaken: true });
    assert.equal(taken.verdict, row.verdict, row.recommended);
    if (taken.verdict === 'deny')
      assert.match(taken.reason, new RegExp(`^${row.recommended} was already taken .* never reused`));
    assert.notEqual(
      decide({ recommended: row.recommended, autoRecover: true, sessionId: 's1', alreadyTaken: false }).verdict,
      'deny',
      row.recommended,
    );
  }
  // The fingerprint rule comes first: even recovery that is off reports the reuse.
  assert.equal(
    decide({ recommended: 'CANCEL_AND_RESUME', autoRecover: false, sessionId: 's1', alreadyTaken: true }).verdict,
    'deny',
  );
});
