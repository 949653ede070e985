import { FOR_A_PERSON, type SignalRow } from './signal-row.ts';

/** Never a stall: the run that found the marker goes on, or `deadman revive` reports its refusal (outcome revive-refused). */
export const REVIVE_REFUSED = {
  means: 'a revive marker deadman did not write, or that was changed since, was set aside unread',
  detector: null,
  raisedBy: 'lib/supervise/records/records.ts, when a run starts after its marker was refused',
  diagnosis: FOR_A_PERSON,
  refusal: true,
  stall: 'configured',
  stallLog: 'error',
  errorCode: 'revive_refused',
  severity: 'critical',
  advice:
    "A revive marker failed its checks (its MAC, owner, mode or a symlink) and was moved aside unread: find out who or what wrote or changed it (the file is kept beside the markers), and keep the state directory private to deadman's user.",
} as const satisfies SignalRow;
