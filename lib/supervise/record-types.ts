import type { ProcessInfo } from '../core/process/process-info.ts';
import type { IncidentState } from '../core/incident/incident.ts';
import type { SignalKind } from '../core/incident/kinds.ts';

/** The rows RunRecords writes, as the supervision loop and the commands hand them over. */

export interface Incident {
  id: number;
  kind: SignalKind;
  state: IncidentState;
  message: string;
  attempts: number;
}

export interface SignalEvidence {
  processes: ProcessInfo[];
  lastLines: string[];
  target?: ProcessInfo;
}

export interface RunRow {
  name: string;
  argv: string[];
  cwd: string;
  unit: string | null;
  invocationId: string | null;
  pid: number;
  /** With the pid, the identity readers check live (null where /proc is not there). */
  pidStartTime: number | null;
  /** Names this run alone: `deadman approve` binds its answer to it (core/incident/approval-answer.ts). */
  token: string;
  adapter: string;
  reviveOf: string | null;
  /** The `[metrics] textfile` this run writes (absolute), for the reader that finds its deadman dead. */
  metricsTextfile?: string | null;
}
