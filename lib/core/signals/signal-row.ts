import { ExitCode } from '../../exit-codes.ts';
import type { DiagnosisAction, RecoveryAction } from './actions.ts';
import type { Detector } from './detector.ts';

/**
 * What one signal kind means, everywhere deadman decides by kind: one row per kind, assembled in
 * registry.ts. Pure data (the detector is a pure rule).
 */

/**
 * What the run does once it stalls. `withhold`: let systemd kill and restart the unit (with
 * revive). `exit`: stop the tree and exit 75 (124 for a timeout). `finish`: the agent is done
 * but did not exit — stop the tree, and the run concludes with the agent's verdict.
 * `usage-wait`: interrupt the agent, and the run waits for its usage limit's reset.
 * `cancel-resume`: interrupt the agent, and the run resumes its session with guidance. `halt`:
 * stop the tree and exit 69 (do not restart). `respawn`: interrupt the agent, and the run starts
 * a fresh session with a handoff. `settle`: stop the agent, settle its session (never revived)
 * and exit 69 (do not restart): only a person can lift what stopped it.
 */
export type StallAction =
  'withhold' | 'exit' | 'finish' | 'usage-wait' | 'cancel-resume' | 'halt' | 'respawn' | 'settle';

/** How the next pass of the run starts after a pass ended this way (pass-loop.ts). */
export type NextPass =
  /** The same session resumed at once, told the guidance. */
  | 'resume-with-guidance'
  /** A fresh session with the task and a handoff. */
  | 'respawn'
  /** The same session resumed once the usage limit's reset has come. */
  | 'resume-after-reset';

/**
 * The outcome a pass records when its run goes on with each next pass; a row's `nextPass` and its
 * `end.outcome` agree with it (test/core/signals/registry.test.ts). A table here, not read off
 * the rows, so a reader telling a pass between two others from a run's end
 * (core/status/run-presence.ts) loads no detector (issue 36.1).
 */
export const NEXT_PASS_OUTCOMES = {
  'resume-with-guidance': 'cancel-resume',
  respawn: 'respawn',
  'resume-after-reset': 'usage-limit',
} as const satisfies Record<NextPass, Outcome>;

type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Every way a pass can end, as the run records it: a row's `end` names one of these, or does not compile. */
export type Outcome =
  | 'completed'
  | 'recovered_and_resumed'
  | 'failed'
  | 'green-but-dead'
  | 'stalled'
  | 'timeout'
  | 'stopped'
  | 'spawn-failed'
  | 'usage-limit'
  | 'cancel-resume'
  | 'halted'
  | 'respawn'
  | 'credit-exhausted';

/**
 * How a pass ends: the run's outcome and exit code; `clean`: its revive marker completes;
 * `settles`: it is settled with the reason, so no start resumes the session (run-marker.ts).
 */
export interface PassEnd {
  outcome: Outcome;
  exitCode: ExitCodeValue;
  clean?: true;
  settles?: true;
}

export interface SignalRow {
  /** One line for the docs: what it means. */
  means: string;
  /** The rule run every tick; null for a kind raised once, where `raisedBy` says. */
  detector: Detector<unknown> | null;
  /** Where it is raised: its detector's rule file, or the one place outside the tick. */
  raisedBy: string;
  /** The detector looks once more when the root exits (its lines are all read by then). */
  atExit?: true;
  /** The deterministic diagnosis: one recommended action and why. */
  diagnosis: { action: RecoveryAction; rationale: string };
  /** The diagnosis contract's actions an external diagnostician may answer, each with the action it becomes; absent: never consulted. */
  consult?: Partial<Record<DiagnosisAction, RecoveryAction>>;
  /** `deadman attach` watches for it too: its rule needs only the tree and the output, not a run deadman started. */
  attached?: true;
  /**
   * Someone else's doing, not the run's: a later clean run does not supersede it (a person
   * acknowledges it), and open since the run started it shows the run as `refused`.
   */
  refusal?: true;
  /** The ending action whose stall this kind is: taking it stops the agent as this kind's stall. */
  endedBy?: RecoveryAction;
  /** Once stalled: its own stall action, or `configured` (withhold when `on_stall = "withhold"` after READY=1, else exit). */
  stall: StallAction | 'configured';
  /** Stopping for it: SIGINT interrupts the agent as a person would (it records the turn as interrupted); else SIGTERM. */
  interrupts?: true;
  /** The journal level of the stall's line: ending on the agent's own word is news, not a fault. */
  stallLog: 'notice' | 'error';
  /** STATUS= while it stops the run: `WORD · message · doing` (a configured stall says STALLED). */
  status?: { word: string; doing?: string };
  /** How a pass that stalled of it ends: the run's outcome and exit code; `verdict`: the agent's own result decides. */
  end?: PassEnd | 'verdict';
  /** How the run goes on after a pass that ended of it; absent: it ends the run. */
  nextPass?: NextPass;
  /** The stable code stored in `runs.error_code` and `incidents.error_code` (error-codes.ts): a contract. */
  errorCode: string;
  severity: 'warning' | 'critical';
  /** What to change so it does not happen again (`deadman report`). */
  advice: string;
}

/** How most stalls end a pass: stopped (or restarted by systemd), exit 75, the revive marker kept. */
export const STALLED_END: PassEnd = { outcome: 'stalled', exitCode: ExitCode.STALLED_RESTART };

/** The diagnosis of a whole-run stall: no single process is to blame. */
export const WHOLE_RUN_STALL = {
  action: 'STALL_POLICY',
  rationale:
    'the whole run stopped making progress and no single process is to blame; a restart (with revive) is the remedy',
} as const;

/** The diagnosis of a kind only a person can act on. */
export const FOR_A_PERSON = {
  action: 'REPORT',
  rationale: 'retrying cannot help without a person looking first',
} as const;
