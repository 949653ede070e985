import { userInfo } from 'node:os';
import type { Job } from '../../core/config/config.ts';
import type { Clock } from '../../core/time/clock.ts';
import { indented, jobBlock, rerunLine, rerunResult } from '../../core/evidence/check-report.ts';
import { needsAttention, type JobVerdict } from '../../core/evidence/evidence.ts';
import type { CommandOutcome } from '../../core/evidence/probe-verdicts.ts';
import { currentOperator, openTerminalPrompt, type TerminalPrompt } from '../../io/approvals/approval.ts';
import { runBounded } from '../../io/process/bounded-run.ts';
import type { Store } from '../../io/store/store.ts';

/**
 * `deadman check --fix` for one dead job: ask, record the decision (who, when), and only when
 * approved run the job's `rerun` argv and check the job again from scratch. A refusal changes
 * nothing but the decision record.
 */

export interface FixSession {
  store: Store;
  clock: Clock;
  out: (line: string) => void;
  assumeYes: boolean;
  /** Opened at the first question; null when there is no terminal to ask. */
  prompt: TerminalPrompt | null | undefined;
}

/** Rerun output kept in the `actions` record: the first and last 32 KiB of each stream. */
const RERUN_OUTPUT_BYTES = 64 * 1024;

/** Returns the fresh verdict after an approved rerun, or null when nothing was done. */
export async function fixJob(
  session: FixSession,
  name: string,
  job: Job,
  dead: JobVerdict,
  recheck: () => Promise<JobVerdict[]>,
): Promise<JobVerdict | null> {
  if (job.rerun === undefined) {
    session.out(
      indented(`not fixed: ${name} has no rerun; it is checked, never fixed (add rerun = [...] to [jobs.${name}])`),
    );
    return null;
  }
  const decision = await decide(session);
  const problems = dead.claims
    .filter(needsAttention)
    .map((c) => c.reason)
    .join('; ');
  session.store.insert('decisions', {
    job: name,
    at: session.clock.wall(),
    action: 'RERUN',
    verdict: decision.approved ? 'APPROVED' : 'REFUSED',
    reason: `${decision.how} (${problems})`,
    who: currentOperator(),
  });
  if (!decision.approved) {
    session.out(indented(decision.note));
    return null;
  }
  const argv = rerunArgv(job, job.rerun);
  const started = session.clock.monotonic();
  const outcome: CommandOutcome =
    typeof argv === 'string'
      ? { kind: 'not-started', error: argv }
      : await runBounded({ argv, cwd: job.cwd, timeoutMs: job.timeout, maxOutputBytes: RERUN_OUTPUT_BYTES });
  const elapsedMs = session.clock.monotonic() - started;
  session.store.insert('actions', {
    job: name,
    at: session.clock.wall(),
    kind: 'RERUN',
    target: { argv: job.rerun, cwd: job.cwd, user: job.user },
    result: rerunResult(outcome),
    detail: capturedOutput(outcome),
  });
  session.out(rerunLine(outcome, elapsedMs));
  const [fresh] = await recheck();
  for (const line of jobBlock(fresh!, null)) session.out(line);
  return fresh!;
}

async function decide(session: FixSession): Promise<{ approved: boolean; how: string; note: string }> {
  if (session.assumeYes) {
    session.out(indented('approved with --yes'));
    return { approved: true, how: 'approved with --yes', note: '' };
  }
  if (session.prompt === undefined) session.prompt = openTerminalPrompt();
  if (session.prompt === null) {
    return {
      approved: false,
      how: 'no terminal to ask',
      note: 'not fixed: no terminal to ask for approval; pass --yes to approve without asking',
    };
  }
  const approved = await session.prompt.confirm('Approve? [y/N] ');
  return approved
    ? { approved, how: 'approved on the terminal', note: '' }
    : { approved, how: 'refused on the terminal', note: 'refused; nothing was changed' };
}

/**
 * The argv to run: as is, or through runuser(1) when the job names another `user` and deadman
 * runs as root (runuser sets the user's groups, HOME and USER). Linux only, like `user` itself.
 */
function rerunArgv(job: Job, rerun: string[]): string[] | string {
  const me = userInfo();
  if (job.user === undefined || job.user === me.username) return rerun;
  if (me.uid !== 0) return `the job runs as user ${job.user}; run deadman check --fix as root (not ${me.username})`;
  return ['runuser', '-u', job.user, '--', ...rerun];
}

function capturedOutput(outcome: CommandOutcome): string | undefined {
  if (outcome.kind === 'not-started') return outcome.error;
  return (
    [outcome.stdout && `stdout:\n${outcome.stdout}`, outcome.stderr && `stderr:\n${outcome.stderr}`]
      .filter(Boolean)
      .join('\n') || undefined
  );
}
