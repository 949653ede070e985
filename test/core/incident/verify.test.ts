import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyResumed, verifyRecovery, type VerifyInput } from '../../../lib/core/incident/verify.ts';

const base: VerifyInput = {
  actedAt: 1000,
  now: 2000,
  windowMs: 60_000,
  targetGone: true,
  lastOutputAt: 500,
  rootExit: null,
};

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

test('a resume or respawn is judged by the session after it: moved on, the same failure again, or ended without either', () => {
  const none = {
    sameSignalAgain: false,
    turnCompleted: false,
    toolSucceeded: false,
    workspaceChanged: false,
    ended: null,
  };
  assert.deepEqual(verifyResumed(none), { verdict: 'PENDING' }, 'the interruption alone proves nothing');
  assert.equal(verifyResumed({ ...none, turnCompleted: true }).verdict, 'RESOLVED');
  assert.equal(verifyResumed({ ...none, toolSucceeded: true }).verdict, 'RESOLVED');
  assert.equal(verifyResumed({ ...none, workspaceChanged: true }).verdict, 'RESOLVED');
  assert.deepEqual(verifyResumed({ ...none, sameSignalAgain: true, turnCompleted: true }), {
    verdict: 'NOT_RESOLVED',
    detail: 'the resumed session failed the same way again',
  });
  assert.deepEqual(verifyResumed({ ...none, ended: { code: 1 } }), {
    verdict: 'NOT_RESOLVED',
    detail: 'the resumed session ended (exit 1) without showing it moved on',
  });
});
