import type { CommandModule } from 'yargs';
import { ExitCode, DeadmanError } from '../exit-codes.ts';
import type { ApprovalAnswer } from '../core/incident/approval-answer.ts';
import { runPresence } from '../core/status/run-presence.ts';
import { currentOperator } from '../io/approvals/approval.ts';
import { writeApprovalAnswer } from '../io/approvals/approval-inbox.ts';
import type { RecordedRun } from '../io/store/run-ends.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { incidentAsRead, openForIncident, type IncidentAsRead } from './shared/incident-argument.ts';

/**
 * `deadman approve ID` / `deadman deny ID`: a person's answer to an incident AWAITING_APPROVAL
 * (a hung subtree the run would not kill without --auto-recover). The answer names the run that
 * waits (its token from the database) and goes into the state directory; only that run, while
 * its deadman lives, takes it at its next poll, acts (or leaves the subtree alone) and records
 * who answered and when in the incident's timeline (`deadman report ID`). An answer for a run
 * that ended, or an incident that no longer waits, is refused (exit 1) and nothing is written.
 */

interface AnswerArgs extends CommonArgs {
  incident: number;
}

function answerCommand(decision: ApprovalAnswer['decision']): CommandModule<object, AnswerArgs> {
  const verb = decision === 'approve' ? 'approve' : 'deny';
  return {
    command: `${verb} <incident>`,
    describe:
      decision === 'approve'
        ? 'let the running deadman kill the hung subtree of an incident AWAITING_APPROVAL'
        : 'tell the running deadman to leave the hung subtree of an incident AWAITING_APPROVAL alone',
    builder: (y) =>
      y
        .positional('incident', {
          type: 'number',
          demandOption: true,
          describe: 'the incident id (deadman incidents, STATUS=, the journal line)',
        })
        .options(stateOptions),
    handler: async (args) => {
      const { id, store, database, context } = await openForIncident(args);
      let found;
      try {
        found = incidentAsRead(store, database, context, id, context.clock.wall());
      } finally {
        store.close();
      }
      const run = waitingRun(id, verb, found);
      const request: ApprovalAnswer = {
        run_token: run.token,
        incident_id: id,
        decision,
        by: currentOperator(),
        at: new Date(context.clock.wall()).toISOString(),
      };
      const path = writeApprovalAnswer(context.paths.stateDir, request);
      process.stdout.write(
        `${verb === 'approve' ? 'approved' : 'denied'} incident ${id} as ${request.by}; run #${run.id} (${run.name}) takes ${path} at its next poll (deadman report ${id} shows it)\n`,
      );
    },
  };
}

/** The live run that waits for this answer, with its token; any other case is one line, exit 1. */
function waitingRun(id: number, verb: string, found: IncidentAsRead): RecordedRun & { token: string } {
  const refuse = (why: string) =>
    new DeadmanError(`incident ${id} ${why}: there is nothing to ${verb}`, ExitCode.ATTENTION);
  const { run } = found;
  if (run === null) throw refuse('has no run recorded any more');
  const presence = runPresence(run, !found.lost);
  // The state every reader gives (report, incidents, status): a lost run's waiting incident reads ABANDONED, an escalated one stays ESCALATED.
  if (found.state !== 'AWAITING_APPROVAL') {
    throw refuse(
      `is ${found.state}, not AWAITING_APPROVAL${presence === 'lost' ? `; its run #${run.id} (${run.name}) lost its deadman (pid ${run.pid})` : ''}`,
    );
  }
  if (presence === 'ended')
    throw refuse(`belongs to run #${run.id} (${run.name}), which ended (${run.outcome ?? 'no outcome'})`);
  if (!run.token)
    throw refuse(
      `belongs to run #${run.id} (${run.name}), recorded by an older deadman that takes no answers bound to its run; restart it`,
    );
  return { ...run, token: run.token };
}

export const approveCommand = answerCommand('approve');
export const denyCommand = answerCommand('deny');
