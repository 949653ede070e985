/**
 * The trace format version `deadman run --record` writes; trace.ts reads it and every earlier one.
 * Version 2 records what version 1 left out — the start clock, tick times to the microsecond,
 * what each kill did, evidence verdicts, the ready port's answers — so a replay equals the live
 * run; a version 1 trace replays as it always did. Apart from trace.ts, so the recorder does not
 * load zod on the run path.
 */
export const TRACE_VERSION = 2;
