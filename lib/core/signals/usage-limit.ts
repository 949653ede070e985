import { ExitCode } from '../../exit-codes.ts';
import { detectUsageLimit } from '../detect/usage-limit.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const usageLimit: Detector = {
  init: null,
  detect: ({ output }) => detectUsageLimit(output.usageLimit),
};

export const USAGE_LIMIT = {
  means: "the agent's turn failed on a plan or usage limit, or on a throttle",
  detector: usageLimit,
  raisedBy: 'lib/core/detect/usage-limit.ts',
  // The agent may report it and exit within one poll.
  atExit: true,
  diagnosis: {
    action: 'WAIT_FOR_USAGE_RESET',
    rationale: 'the plan or usage limit holds until its reset: a restart before then only burns retries',
  },
  endedBy: 'WAIT_FOR_USAGE_RESET',
  stall: 'usage-wait',
  interrupts: true,
  stallLog: 'notice',
  status: { word: 'USAGE LIMIT', doing: 'stopping the agent to wait for the reset' },
  end: { outcome: 'usage-limit', exitCode: ExitCode.STALLED_RESTART },
  nextPass: 'resume-after-reset',
  errorCode: 'usage_limit',
  severity: 'critical',
  advice:
    'The agent hit its plan or usage limit: deadman waited for the reset and resumed the session; spread the jobs over the day, or raise the plan, if it happens often.',
} as const satisfies SignalRow;
