import type { RecoveryAction, SignalKind } from '../../core/incident/kinds.ts';
import type { PolicyDecision } from '../../core/incident/policy-decision.ts';
import type { Diagnosis } from '../../core/incident/default-diagnosis.ts';
import type { DetectedKind } from '../../core/signals/registry.ts';
import type { OutputTracker } from '../output/output.ts';
import type { Incident } from '../records/records.ts';
import type { SupervisorPorts } from '../ports.ts';
import type { DetectorSettings, RunDetector, RunFacts, Signal } from './detectors.ts';
import type { RecoveryCase } from './recovery.ts';

/** The supervisor's parts and the shapes of its cases (supervisor.ts). */

export interface SupervisorSettings extends DetectorSettings {
  autoRecover: boolean;
  verifyWindowMs: number;
}

export interface Stall {
  kind: SignalKind;
  message: string;
  incident: Incident;
  /** CANCEL_AND_RESUME: what the resumed session is told. */
  guidance?: string | undefined;
}

/** A new incident as it opens: its signal and case, and what diagnosis and policy said of it. */
export interface Opening {
  signal: Signal;
  open: OpenCase;
  decision: PolicyDecision;
  diagnosis: Diagnosis;
}

/** An open incident, the detector that raised it, and the recovery it is in (when its action is one). */
export interface OpenCase extends Partial<RecoveryCase> {
  incident: Incident;
  detector: RunDetector;
  /** A person said no (`deadman deny`): never acted on, forgotten once its subtree is gone. */
  denied?: true;
  /** Set when the incident's action ends the run (its verification is the root's exit). */
  endsRun?: RecoveryAction;
}

/** What a supervisor is made of: its ports, its settings as they are now, the output it reads, and what it tells of a stall. */
export interface SupervisorParts {
  ports: SupervisorPorts;
  /** Read at every use: a SIGHUP may have changed them since (live-config.ts). */
  settings: () => SupervisorSettings;
  output: OutputTracker;
  startedAt: number;
  onStall: (stall: Stall) => void;
  /** The kinds detected; every one the registry has when left out. */
  kinds?: readonly DetectedKind[];
  /** What the run knows of itself (ready, evidence); a run's pass reads readiness from its machine. */
  facts?: RunFacts;
  /** Action fingerprints policy allowed in this run, kept across its passes: none is taken twice. */
  actionsTaken?: Set<string> | undefined;
}
