import { findHungSubtree } from '../detect/hung.ts';
import type { Detector } from './detector.ts';
import { STALLED_END, type SignalRow } from './signal-row.ts';

/** Only one hung incident at a time: a second attempt may target a respawned subtree, and still counts against the same incident. */
const hungProcess: Detector = {
  init: null,
  detect: ({ history, output, settings }) => {
    if (!history.latest) return null;
    const finding = findHungSubtree(history.latest, history.progress, {
      hungTimeoutMs: settings.hungTimeoutMs,
      lastOutputAt: output.lastOutputAt,
      baseline: history.persistent,
      ignore: settings.ignore,
      openTools: [...output.openTools].map(([toolId, startedAt]) => ({
        toolId,
        startedAt,
        windowFrom: output.openToolWindows.get(toolId) ?? startedAt,
        command: output.openToolCommands.get(toolId) ?? null,
      })),
      firstToolAt: output.firstToolAt,
      requireOpenTool: settings.agent(),
    });
    return finding && { message: finding.reason, finding };
  },
};

export const HUNG_PROCESS = {
  means:
    'one subtree under an open tool call made no CPU or I/O progress for `hung_timeout` while the agent waited on it',
  detector: hungProcess,
  raisedBy: 'lib/core/detect/hung.ts',
  diagnosis: {
    action: 'TERMINATE_DESCENDANT_PROCESS',
    rationale:
      'a descendant made no CPU or I/O progress while the agent waited on it; killing it returns a failed tool result the agent can act on',
  },
  consult: {
    TERMINATE_DESCENDANT_PROCESS: 'TERMINATE_DESCENDANT_PROCESS',
    OBSERVE: 'REPORT',
    HALT_AND_ESCALATE: 'HALT_AND_ESCALATE',
  },
  attached: true,
  stall: 'configured',
  stallLog: 'error',
  end: STALLED_END,
  errorCode: 'hung_process',
  // One hung descendant is a warning: the run as a whole may still be fine.
  severity: 'warning',
  advice:
    'A tool command sat idle with no CPU or I/O: give the commands the agent runs their own timeouts (`timeout 10m …`) and keep interactive programs out of them (PAGER=cat, GIT_EDITOR=true, CI=1).',
} as const satisfies SignalRow;
