import type { CommandModule } from 'yargs';
import { transition, type IncidentState } from '../core/incident/incident.ts';
import { runPresence } from '../core/status/run-presence.ts';
import { DeadmanError, ExitCode } from '../exit-codes.ts';
import { currentOperator } from '../io/approvals/approval.ts';
import { mayWrite, recordInto } from '../io/store/lost-runs.ts';
import { moveIncident } from '../io/store/run-ends.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import { incidentAsRead, openForIncident, type IncidentAsRead } from './shared/incident-argument.ts';

/**
 * `deadman ack ID [--note TEXT]`: a person settles an ESCALATED incident by hand — it has been
 * looked at — so `status` stops asking for one. Recorded in the incident's timeline with who
 * (user, uid, sudo caller), when and the note; the incident stays in the record, ACKNOWLEDGED.
 * Only an incident whose run ended: a running deadman still acts on its own incidents.
 */

interface AckArgs extends CommonArgs {
  incident: number;
  note?: string;
}

export const ackCommand: CommandModule<object, AckArgs> = {
  command: 'ack <incident>',
  describe:
    'settle an ESCALATED incident by hand (it was looked at): recorded with who and when; status stops counting it',
  builder: (y) =>
    y
      .positional('incident', {
        type: 'number',
        demandOption: true,
        describe: 'the incident id (deadman incidents, status, the alert)',
      })
      .option('note', { type: 'string', describe: "why, for the incident's timeline (deadman report ID)" })
      .options(stateOptions),
  handler: async (args) => {
    const { id, store, database, context } = await openForIncident(args);
    const now = context.clock.wall();
    try {
      refuseUnlessAcknowledgeable(id, incidentAsRead(store, database, context, id, now));
      if (!mayWrite(store)) throw cannotRecord(database, "it is not this user's file at this deadman's schema version");
    } finally {
      store.close();
    }
    const by = currentOperator();
    const note = args.note === undefined ? null : redactorFor(context.config).text(args.note);
    // Moved from the state it has in the writer's transaction: an incident settled meanwhile is not acknowledged over.
    let moved = false;
    const recorded = recordInto(database, (writer) =>
      writer.transaction(() => {
        const current = writer.get<{ state: string }>('SELECT state FROM incidents WHERE id = ?', id);
        moved =
          current !== undefined &&
          moveIncident(
            writer,
            { id, state: current.state },
            'acknowledged',
            now,
            `acknowledged by ${by}${note ? `: ${note}` : ''}`,
            { by, note },
          );
      }),
    );
    if (!recorded) throw cannotRecord(database, 'it is locked, read-only or full');
    if (!moved)
      throw new DeadmanError(`incident ${id} was settled meanwhile; see deadman report ${id}`, ExitCode.ATTENTION);
    process.stdout.write(`acknowledged incident ${id} as ${by}; deadman report ${id} shows it\n`);
  },
};

/** Only an ESCALATED incident of a run that is over; any other case is one line, exit 1, and nothing is written. */
function refuseUnlessAcknowledgeable(id: number, found: IncidentAsRead): void {
  const refuse = (why: string) => new DeadmanError(`incident ${id} ${why}`, ExitCode.ATTENTION);
  if (found.state === 'AWAITING_APPROVAL')
    throw refuse(`is AWAITING_APPROVAL: answer it with deadman approve ${id} or deadman deny ${id}`);
  if (transition(found.state as IncidentState, 'acknowledged', 0) === null)
    throw refuse(`is ${found.state}, not ESCALATED: there is nothing to acknowledge`);
  if (found.run !== null && runPresence(found.run, !found.lost) === 'running') {
    throw refuse(
      `belongs to run #${found.run.id}, which is still running and acts on it; stop the run first, or let a later completed run supersede it`,
    );
  }
}

function cannotRecord(database: string, why: string): DeadmanError {
  return new DeadmanError(
    `cannot record the acknowledgement in ${database}: ${why}; run as its owner`,
    ExitCode.IO_ERROR,
  );
}
