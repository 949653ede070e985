import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runErrorCode, signalErrorCode, SIGNAL_ERROR_CODES } from '../../../lib/core/incident/error-codes.ts';

/** One stable code per way a run or incident ends: the table callers branch on. */

test('every signal has its own snake_case code; the ones callers know by name are pinned', () => {
  const codes = Object.values(SIGNAL_ERROR_CODES);
  assert.equal(new Set(codes).size, codes.length, 'no two signals share a code');
  for (const code of codes) assert.match(code, /^[a-z]+(?:_[a-z]+)*$/);
  assert.equal(signalErrorCode('OUTPUT_INACTIVITY'), 'output_inactivity');
  assert.equal(signalErrorCode('HUNG_PROCESS'), 'hung_process');
  assert.equal(signalErrorCode('USAGE_LIMIT'), 'usage_limit');
  assert.equal(signalErrorCode('SOMETHING_NEWER'), null, 'an unknown kind gets no code rather than a wrong one');
});

test("a run's code: from its outcome, else from what stopped it; a completion has none", () => {
  const table: Array<[Parameters<typeof runErrorCode>[0], string | null]> = [
    [{ outcome: 'completed' }, null],
    [{ outcome: 'recovered_and_resumed' }, null],
    [{ outcome: 'stalled', stallKind: 'OUTPUT_INACTIVITY' }, 'output_inactivity'],
    [{ outcome: 'stalled', stallKind: 'HUNG_PROCESS' }, 'hung_process'],
    [{ outcome: 'stalled' }, 'stalled'],
    [{ outcome: 'usage-limit' }, 'usage_limit'],
    [{ outcome: 'usage-limit', throttle: true }, 'rate_limited'],
    [{ outcome: 'failed', turnFailed: true }, 'turn_failed'],
    [{ outcome: 'failed' }, 'child_failed'],
    [{ outcome: 'timeout' }, 'timeout'],
    [{ outcome: 'green-but-dead' }, 'evidence_failed'],
    [{ outcome: 'cancel-resume' }, 'repeated_failure'],
    [{ outcome: 'respawn' }, 'session_budget_risk'],
    [{ outcome: 'revive-exhausted' }, 'revive_exhausted'],
    [{ outcome: 'lost' }, 'supervisor_lost'],
    [{ outcome: 'a-newer-outcome' }, null],
  ];
  for (const [end, code] of table) assert.equal(runErrorCode(end), code, JSON.stringify(end));
});
