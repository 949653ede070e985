import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyExit, type ChildExit, type Seen } from '../../../lib/supervise/run/outcome.ts';
import type { Stall } from '../../../lib/supervise/tick/supervisor.ts';
import type { Incident } from '../../../lib/supervise/records/records.ts';
import type { SignalKind } from '../../../lib/core/incident/kinds.ts';

/**
 * How a pass ends, as a table: the child's exit, what the run saw (a stop signal, a stall of
 * some kind, the agent's completion, a failed turn) and the evidence check on exit → outcome,
 * exit code, error code and whether it is clean. Pure: no ports.
 */

const incident: Incident = { id: 7, kind: 'HUNG_PROCESS', state: 'ESCALATED', message: 'm', attempts: 0 };
const stall = (kind: SignalKind, guidance?: string): Stall => ({ kind, message: `${kind} seen`, incident, guidance });
const exited = (code: number | null, signal: NodeJS.Signals | null = null): ChildExit => ({ code, signal });
const seen = (extra: Partial<Seen> = {}): Seen => ({
  stopSignal: null,
  stall: null,
  completed: false,
  sessionId: 's-1',
  ...extra,
});

type Row = [
  name: string,
  exit: ChildExit,
  seen: Seen,
  failingEvidence: string | null,
  expected: { outcome: string; exitCode: number; errorCode: string | null; clean: boolean },
];

const TABLE: Row[] = [
  [
    'a clean completion',
    exited(0),
    seen({ completed: true }),
    null,
    { outcome: 'completed', exitCode: 0, errorCode: null, clean: true },
  ],
  [
    'exit 0 without the completion event',
    exited(0),
    seen(),
    null,
    { outcome: 'completed', exitCode: 0, errorCode: null, clean: false },
  ],
  [
    'completed after a verified recovery',
    exited(0),
    seen({ completed: true, recovered: true }),
    null,
    { outcome: 'recovered_and_resumed', exitCode: 0, errorCode: null, clean: true },
  ],
  [
    'green but dead',
    exited(0),
    seen({ completed: true }),
    'out.txt is 2h old',
    { outcome: 'green-but-dead', exitCode: 65, errorCode: 'evidence_failed', clean: false },
  ],
  [
    'the child failed',
    exited(3),
    seen(),
    null,
    { outcome: 'failed', exitCode: 3, errorCode: 'child_failed', clean: false },
  ],
  [
    'the agent said its turn failed',
    exited(1),
    seen({ turnFailed: 'API error' }),
    null,
    { outcome: 'failed', exitCode: 1, errorCode: 'turn_failed', clean: false },
  ],
  [
    'the child was killed',
    exited(null, 'SIGKILL'),
    seen({ turnFailed: 'API error' }),
    null,
    { outcome: 'failed', exitCode: 137, errorCode: 'child_failed', clean: false },
  ],
  [
    'deadman was stopped',
    exited(null, 'SIGTERM'),
    seen({ stopSignal: 'SIGTERM', stall: stall('OUTPUT_INACTIVITY') }),
    null,
    { outcome: 'stopped', exitCode: 143, errorCode: 'stopped', clean: false },
  ],
  [
    'an inactivity stall',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('OUTPUT_INACTIVITY') }),
    null,
    { outcome: 'stalled', exitCode: 75, errorCode: 'output_inactivity', clean: false },
  ],
  [
    'an escalated hung process',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('HUNG_PROCESS') }),
    null,
    { outcome: 'stalled', exitCode: 75, errorCode: 'hung_process', clean: false },
  ],
  [
    'not ready',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('NOT_READY') }),
    null,
    { outcome: 'stalled', exitCode: 75, errorCode: 'not_ready', clean: false },
  ],
  [
    'stale evidence',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('EVIDENCE_STALE') }),
    null,
    { outcome: 'stalled', exitCode: 75, errorCode: 'evidence_stale', clean: false },
  ],
  [
    'no progress put to a person who did not answer',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('NO_PROGRESS') }),
    null,
    { outcome: 'stalled', exitCode: 75, errorCode: 'no_progress', clean: false },
  ],
  [
    'the wall-time cap',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('TIMEOUT') }),
    null,
    { outcome: 'timeout', exitCode: 124, errorCode: 'timeout', clean: false },
  ],
  [
    'a halt',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('HALT_AND_ESCALATE') }),
    null,
    { outcome: 'halted', exitCode: 69, errorCode: 'halted', clean: false },
  ],
  [
    'a repeated failure',
    exited(130),
    seen({ stall: stall('REPEATED_FAILURE', 'change it') }),
    null,
    { outcome: 'cancel-resume', exitCode: 75, errorCode: 'repeated_failure', clean: false },
  ],
  [
    'a usage limit',
    exited(130),
    seen({ stall: stall('USAGE_LIMIT'), usageResetAt: 1_000 }),
    null,
    { outcome: 'usage-limit', exitCode: 75, errorCode: 'usage_limit', clean: false },
  ],
  [
    'a throttle',
    exited(130),
    seen({ stall: stall('USAGE_LIMIT'), usageThrottle: true }),
    null,
    { outcome: 'usage-limit', exitCode: 75, errorCode: 'rate_limited', clean: false },
  ],
  [
    'over budget',
    exited(130),
    seen({ stall: stall('SESSION_BUDGET_RISK') }),
    null,
    { outcome: 'respawn', exitCode: 75, errorCode: 'session_budget_risk', clean: true },
  ],
  [
    'finished with a success, stopped by deadman',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('FINISHED_NOT_EXITED'), completed: true }),
    null,
    { outcome: 'completed', exitCode: 0, errorCode: null, clean: true },
  ],
  [
    'finished with a failure, stopped by deadman',
    exited(null, 'SIGTERM'),
    seen({ stall: stall('FINISHED_NOT_EXITED') }),
    null,
    { outcome: 'failed', exitCode: 1, errorCode: 'child_failed', clean: false },
  ],
  [
    'finished, then deadman was stopped',
    exited(null, 'SIGTERM'),
    seen({ stopSignal: 'SIGINT', stall: stall('FINISHED_NOT_EXITED'), completed: true }),
    null,
    { outcome: 'stopped', exitCode: 0, errorCode: 'stopped', clean: false },
  ],
];

for (const [name, exit, saw, failing, expected] of TABLE) {
  test(`classifyExit: ${name} → ${expected.outcome}, exit ${expected.exitCode}`, () => {
    const result = classifyExit(exit, saw, failing);
    assert.deepEqual(
      { outcome: result.outcome, exitCode: result.exitCode, errorCode: result.errorCode, clean: result.clean },
      expected,
    );
  });
}

test('classifyExit hands the next pass what it needs, and the incident it must settle only after a resume or a respawn', () => {
  const resume = classifyExit(exited(130), seen({ stall: stall('REPEATED_FAILURE', 'change the test first') }));
  assert.equal(resume.resumeGuidance, 'change the test first');
  assert.deepEqual(resume.verifying, { incident });
  const respawn = classifyExit(
    exited(130),
    seen({ stall: stall('SESSION_BUDGET_RISK', 'carry on from step 3'), history: [], filesChanged: ['a.ts'] }),
  );
  assert.deepEqual(
    [respawn.handoffFiles, respawn.handoffGuidance, respawn.verifying],
    [['a.ts'], 'carry on from step 3', { incident }],
  );
  const wait = classifyExit(exited(130), seen({ stall: stall('USAGE_LIMIT'), usageResetAt: 5_000 }));
  assert.deepEqual([wait.usageResetAt, wait.usageThrottle, wait.verifying], [5_000, false, undefined]);
  assert.equal(
    classifyExit(exited(null, 'SIGTERM'), seen({ stopSignal: 'SIGTERM', stall: stall('REPEATED_FAILURE') })).verifying,
    undefined,
  );
  assert.equal(classifyExit(exited(null, 'SIGTERM'), seen({ stall: stall('HALT_AND_ESCALATE') })).verifying, undefined);
});
