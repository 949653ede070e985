import type { CommandModule } from 'yargs';
import { ExitCode, usageError, DeadmanError } from '../exit-codes.ts';
import type { ApprovalRequest } from '../core/incident/approval-request.ts';
import { currentOperator } from '../io/approval.ts';
import { writeApprovalRequest } from '../io/approval-inbox.ts';
import { systemClock } from '../io/clock.ts';
import { stateOptions, type CommonArgs } from './command-context.ts';
import { openExistingStore, readRows } from './open-existing-store.ts';

/**
 * `deadman approve ID` / `deadman deny ID`: a person's answer to an incident AWAITING_APPROVAL
 * (a hung subtree the run would not kill without --auto-recover). The answer goes into the state
 * directory; the running deadman takes it at its next poll, acts (or leaves the subtree alone)
 * and records who answered and when in the incident's timeline (`deadman report ID`).
 */

interface AnswerArgs extends CommonArgs {
  incident: number;
}

function answerCommand(decision: ApprovalRequest['decision']): CommandModule<object, AnswerArgs> {
  const verb = decision === 'approve' ? 'approve' : 'deny';
  return {
    command: `${verb} <incident>`,
    describe: decision === 'approve'
      ? 'let the running deadman kill the hung subtree of an incident AWAITING_APPROVAL'
      : 'tell the running deadman to leave the hung subtree of an incident AWAITING_APPROVAL alone',
    builder: (y) => y
      .positional('incident', { type: 'number', demandOption: true, describe: 'the incident id (deadman incidents, STATUS=, the journal line)' })
      .options(stateOptions),
    handler: async (args) => {
      const id = args.incident;
      if (!Number.isSafeInteger(id) || id <= 0) throw usageError(`"${String(id)}" is not an incident id; see deadman incidents`);
      const { store, database, context } = await openExistingStore(args);
      if (!store) throw usageError(`no database at ${database}: nothing was recorded there (give --state-dir or --database of the run)`);
      const state = readRows(database, () => store.get<{ state: string }>('SELECT state FROM incidents WHERE id = ?', id)?.state ?? null);
      store.close();
      if (state === null) throw usageError(`incident ${id} is not in ${database}; see deadman incidents`);
      if (state !== 'AWAITING_APPROVAL') throw new DeadmanError(`incident ${id} is ${state}, not AWAITING_APPROVAL: there is nothing to ${verb}`, ExitCode.ATTENTION);
      const request: ApprovalRequest = { incident_id: id, decision, by: currentOperator(), at: new Date(systemClock.wall()).toISOString() };
      const path = writeApprovalRequest(context.paths.stateDir, request);
      process.stdout.write(`${verb === 'approve' ? 'approved' : 'denied'} incident ${id} as ${request.by}; the running deadman takes ${path} at its next poll (deadman report ${id} shows it)\n`);
    },
  };
}

export const approveCommand = answerCommand('approve');
export const denyCommand = answerCommand('deny');
