import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from '../../../lib/core/incident/policy.ts';
import { diagnose } from '../../../lib/core/incident/diagnose-rules.ts';

test('a hung descendant is killed only with auto-recover', () => {
  const diagnosis = diagnose('HUNG_PROCESS');
  assert.equal(diagnosis.action, 'TERMINATE_DESCENDANT_PROCESS');
  assert.equal(decide({ recommended: diagnosis.action, autoRecover: false }).verdict, 'await_approval');
  assert.match(decide({ recommended: diagnosis.action, autoRecover: false }).reason, /--auto-recover/);
  assert.equal(decide({ recommended: diagnosis.action, autoRecover: true }).verdict, 'allow');
});

test('whole-run stalls go to the stall policy whatever auto-recover says', () => {
  for (const kind of ['OUTPUT_INACTIVITY', 'EVIDENCE_STALE', 'TIMEOUT', 'NOT_READY'] as const) {
    assert.equal(diagnose(kind).action, 'STALL_POLICY', kind);
    assert.equal(decide({ recommended: 'STALL_POLICY', autoRecover: false }).verdict, 'allow');
  }
  assert.equal(diagnose('EVIDENCE_FAILED').action, 'REPORT');
});
