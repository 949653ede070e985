import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyRecovery, type VerifyInput } from '../../../lib/core/incident/verify.ts';

const base: VerifyInput = { actedAt: 1000, now: 2000, windowMs: 60_000, targetGone: true, lastOutputAt: 500, rootExit: null };

test('resolved only when the target is gone and the work moved again', () => {
  assert.equal(verifyRecovery({ ...base, lastOutputAt: 1500 }).verdict, 'RESOLVED');
  assert.equal(verifyRecovery(base).verdict, 'PENDING');
  assert.equal(verifyRecovery({ ...base, targetGone: false, lastOutputAt: 1500 }).verdict, 'PENDING');
  assert.equal(verifyRecovery({ ...base, rootExit: { code: 0, completed: true } }).verdict, 'RESOLVED');
});

test('not resolved after the window, or when the run ends without completing', () => {
  const late = verifyRecovery({ ...base, now: 1000 + 60_000 });
  assert.equal(late.verdict, 'NOT_RESOLVED');
  assert.equal(verifyRecovery({ ...base, targetGone: false, now: 70_000 }).verdict, 'NOT_RESOLVED');
  assert.equal(verifyRecovery({ ...base, rootExit: { code: 1, completed: false } }).verdict, 'NOT_RESOLVED');
  assert.equal(verifyRecovery({ ...base, rootExit: { code: 0, completed: false } }).verdict, 'NOT_RESOLVED');
});
