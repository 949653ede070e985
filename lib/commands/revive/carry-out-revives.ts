import { markExhausted, type Marker } from '../../core/revive/marker.ts';
import type { PlannedRevive } from '../../core/revive/revive-plan.ts';
import { reviveRow, type ReviveRow } from '../../core/revive/revive-text.ts';
import { ExitCode } from '../../exit-codes.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { writeMarker } from '../../io/revive/markers.ts';
import { Store } from '../../io/store/store.ts';
import { sinkOver } from '../../io/store/recording-store.ts';
import { RunRecords } from '../../supervise/records/records.ts';
import { recordRefusal, thisProcessRun } from '../run/refused-run.ts';
import { runAlerts } from '../run/run-alerts.ts';
import type { Context } from '../shared/command-context.ts';
import { openStore, redactorFor } from '../shared/open-store.ts';
import { superviseResume } from './revive-supervised.ts';

/**
 * What `deadman revive` does with its plan: a supervised resume of each session to revive,
 * and for a spent budget the records and alert of a refused run.
 */

/**
 * Records of a refusal that tell [notify], as `deadman run`'s do (commands/run/run-alerts.ts): the
 * escalated incident is a person's to look at. Only the incident goes out, no lifecycle end:
 * the hook is not the run. `settled()` resolves once it was delivered or failed (notify.timeout).
 */
function alertingRecords(context: Context, store: Store, name: string, logger: Logger) {
  const alerts = runAlerts({
    name,
    notify: () => context.config.notify,
    paths: context.paths,
    redactor: redactorFor(context.config),
    logger,
    clock: context.clock,
  });
  return {
    records: new RunRecords(
      sinkOver(store, logger, context.clock),
      () => context.clock.wall(),
      undefined,
      alerts.incidentMoved,
    ),
    alerts,
  };
}

/**
 * Every session to revive goes through the same supervised launch: one found only in the
 * agents' files gets its marker there (markerForSession, written signed by superviseResume),
 * so the supervising run decides it as any marker's (budget from the file's count of revive
 * prompts, freshness, trust, one agent per session) and records the revive once.
 */
export async function carryOut(
  plan: readonly PlannedRevive[],
  context: Context,
  databaseFlag: string | undefined,
  logger: Logger,
): Promise<ReviveRow[]> {
  let store: Store | null = null;
  const database = () => (store ??= openStore(context));
  try {
    return await Promise.all(
      plan.map(async (step) => {
        if (step.action === 'skip') return reviveRow(step);
        if (step.action === 'exhausted') {
          await recordExhausted(step.marker, step.reason, context, database(), logger);
          return reviveRow(step);
        }
        return reviveRow(step, await superviseResume(step, context, databaseFlag, logger));
      }),
    );
  } finally {
    (store as Store | null)?.close();
  }
}

/** Same records and alert as a refused `deadman run`: a run row, and a HALT_AND_ESCALATE incident escalated at once. */
async function recordExhausted(
  marker: Marker,
  reason: string,
  context: Context,
  store: Store,
  logger: Logger,
): Promise<void> {
  writeMarker(context.paths.markerDir, markExhausted(marker, reason, context.clock.wall()));
  const { records, alerts } = alertingRecords(context, store, marker.name, logger);
  recordRefusal(
    records,
    thisProcessRun({
      name: marker.name,
      argv: marker.argv,
      cwd: marker.cwd,
      unit: null,
      adapter: marker.adapter,
      reviveOf: marker.sessionId,
    }),
    { exitCode: ExitCode.DO_NOT_RESTART, outcome: 'revive-exhausted', reason },
    logger,
    `${marker.name}: ${reason}; not reviving session ${marker.sessionId}`,
  );
  await alerts.settled();
}

/**
 * A refused marker found by `deadman revive`: a run row of its name that started nothing
 * (outcome revive-refused) holding the REVIVE_REFUSED incident, recorded and alerted as `deadman run` does.
 */
export async function recordRefusedMarker(
  context: Context,
  name: string,
  problem: string,
  logger: Logger,
): Promise<void> {
  const store = openStore(context);
  try {
    const { records, alerts } = alertingRecords(context, store, name, logger);
    records.refusedMarker(name, problem);
    records.refusedRun(
      thisProcessRun({ name, argv: [], cwd: process.cwd(), unit: null, adapter: 'none', reviveOf: null }),
      { exitCode: null, outcome: 'revive-refused', reason: problem, halt: false },
    );
    await alerts.settled();
  } finally {
    store.close();
  }
}
