import { dirname } from 'node:path';
import type { CommandModule } from 'yargs';
import type { Config, Job } from '../core/config/config.ts';
import type { Clock } from '../core/time/clock.ts';
import { checkDocument, indented, jobBlock, refusedBlock, summaryLine } from '../core/evidence/check-report.ts';
import type { RefusedJob } from '../core/config/job-refusals.ts';
import { combinedState, needsAttention, summarize, type JobVerdict, type Verdict } from '../core/evidence/evidence.ts';
import { configError, ExitCode, usageError } from '../exit-codes.ts';
import { evaluateJobs } from '../io/evidence/evidence.ts';
import { addDurationVerdicts } from '../io/evidence/last-run.ts';
import type { Store } from '../io/store/store.ts';
import { alertJobChanges } from './shared/check-alerts.ts';
import { fixJob, type FixSession } from './shared/check-fix.ts';
import { planJobs } from './shared/check-claims.ts';
import { approvePlan, explainJobs } from './check-plans.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';
import { openStore } from './shared/open-store.ts';

/**
 * `deadman check [JOB…]`: audits the scheduled jobs of `[jobs.NAME]` by the evidence they should
 * have left, so a job that exits 0 and writes nothing ("green but dead") shows up. Exit 1 when
 * any job is dead or unknown; every verdict is recorded in `evidence_results`. A job whose own
 * config is invalid (a claim outside its root) is refused, recorded and reported as such, exit
 * 78, and the other jobs are still audited: one bad job does not blind the digest.
 */

interface CheckArgs extends CommonArgs {
  jobs?: string[];
  json?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  fix?: boolean;
  yes?: boolean;
  explain?: boolean;
  'approve-plan'?: string;
}

export const checkCommand: CommandModule<object, CheckArgs> = {
  command: 'check [jobs..]',
  describe: 'audit scheduled jobs by the evidence they should leave (green but dead?)',
  builder: (y) =>
    y
      .positional('jobs', { type: 'string', array: true, describe: 'names of [jobs.NAME] to check (default: all)' })
      .option('json', { type: 'boolean', describe: 'print the verdicts as one JSON document' })
      .option('verbose', { alias: 'v', type: 'boolean', describe: 'also print one line per healthy job' })
      .option('quiet', {
        alias: 'q',
        type: 'boolean',
        describe: 'print only the jobs that need attention (nothing when all is well): for cron',
      })
      .option('fix', {
        type: 'boolean',
        describe: "offer each dead job's rerun command, asking for approval on the terminal",
      })
      .option('yes', {
        type: 'boolean',
        describe: 'approve every rerun (with --fix) or the plan (with --approve-plan) without asking',
      })
      .option('explain', {
        type: 'boolean',
        describe: 'print the typed plan each job is checked by (what its English claim became); check nothing',
      })
      .option('approve-plan', {
        type: 'string',
        describe: "show the diagnostician's plan for JOB's claim the reader refused, and pin it on approval",
      })
      .conflicts('explain', ['fix', 'json', 'approve-plan'])
      .conflicts('approve-plan', ['fix', 'json'])

      .options(stateOptions)
      .conflicts('json', 'fix')
      .conflicts('quiet', ['verbose', 'json']),
  handler: async (args) => {
    process.exitCode = await runCheck(args);
  },
};

/** `--json`: the verdicts as one document, alerts sent as without it; the exit code. */
async function printJson(
  context: Context,
  jobs: { selected: Array<[string, Job]>; refused: RefusedJob[]; results: JobVerdict[] },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const { selected, refused, results } = jobs;
  const reruns = Object.fromEntries(selected.map(([name, job]) => [name, job.rerun ?? null]));
  out(JSON.stringify(checkDocument(results, summarize(results), reruns, refused), null, 2));
  const exitCode = exitCodeFor(results, refused);
  await alertJobChanges(context, results, exitCode, err);
  return exitCode;
}

async function runCheck(args: CheckArgs): Promise<number> {
  const context = await loadContext(args, {}, { jobsApart: true });
  const approve = args['approve-plan'];
  if (args.yes && !args.fix && approve === undefined)
    throw usageError('--yes approves a rerun (with --fix) or a plan (with --approve-plan); give one of them');
  const { selected, refused } = selectJobs(
    context.config,
    context.refusedJobs,
    approve === undefined ? (args.jobs ?? []) : [approve],
    context.file,
  );
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`deadman: ${line}\n`);
  const { clock } = context;
  // Plans are state: beside the database (in the state directory unless --database moves it).
  const stateDir = dirname(context.paths.database);
  if (args.explain) return explainJobs(selected, stateDir, out);
  if (approve !== undefined)
    return approvePlan(
      { config: context.config, stateDir, clock, assumeYes: args.yes === true, out },
      approve,
      approvable(selected, approve),
    );
  const planned = await planJobs(selected, context.config, stateDir);
  const store = openStore(context);
  const fixSession: FixSession = { store, clock, out, assumeYes: args.yes === true, prompt: undefined };
  try {
    recordRefusals(store, refused, clock.wall());
    const results = await evaluateAndRecord(store, planned.jobs, clock, planned.pending);
    if (args.json) return await printJson(context, { selected, refused, results }, out, err);
    for (const job of refused) for (const line of refusedBlock(job)) out(line);
    const final: JobVerdict[] = [];
    for (const [i, [name, job]] of planned.jobs.entries()) {
      const result = results[i]!;
      if (needsAttention(result))
        for (const line of [...jobBlock(result, job.rerun ?? null), ...(planned.notes.get(name) ?? []).map(indented)])
          out(line);
      else if (args.verbose) out(jobBlock(result, null)[0]!);
      const fixed =
        args.fix && result.verdict === 'dead'
          ? await fixJob(fixSession, name, job, result, () =>
              evaluateAndRecord(store, [[name, job]], clock, planned.pending),
            )
          : null;
      final.push(fixed ?? result);
    }
    const exitCode = exitCodeFor(final, refused);
    await alertJobChanges(context, final, exitCode, err);
    if (!args.quiet || exitCode !== ExitCode.OK) out(summaryLine(summarize(final), refused.length));
    return exitCode;
  } finally {
    fixSession.prompt?.close();
    store.close();
  }
}

/** The named jobs (all when none are named), in the config's order, and the refused ones among them; an unknown name is a usage error. */
function selectJobs(
  config: Config,
  refusedJobs: readonly RefusedJob[],
  names: readonly string[],
  file: string | null,
): { selected: Array<[string, Job]>; refused: RefusedJob[] } {
  const configured = Object.entries(config.jobs);
  const known = [...configured.map(([name]) => name), ...refusedJobs.map((r) => r.job)];
  if (known.length === 0) {
    throw configError(
      `${file ?? 'no config file'}: no jobs to check; add a [jobs.NAME] table with [[jobs.NAME.evidence]] claims (and a rerun to offer with --fix)`,
    );
  }
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw usageError(`unknown job ${unknown.map((n) => `"${n}"`).join(', ')}; configured jobs: ${known.join(', ')}`);
  }
  const wanted = (name: string) => names.length === 0 || names.includes(name);
  return { selected: configured.filter(([name]) => wanted(name)), refused: refusedJobs.filter((r) => wanted(r.job)) };
}

/** The one job `--approve-plan` names; a job refused by the config has no claim to approve yet. */
function approvable(selected: ReadonlyArray<[string, Job]>, name: string): Job {
  const found = selected.find(([job]) => job === name);
  if (found === undefined)
    throw configError(`job "${name}" is refused by the config; fix it first (deadman config check)`);
  return found[1];
}

/** A refused job is audited like a verdict (D1): one `refused` row with its problems. */
function recordRefusals(store: Store, refused: readonly RefusedJob[], at: number): void {
  store.transaction(() => {
    for (const { job, problems } of refused)
      store.insert('evidence_results', { job, claim: 'config', at, verdict: 'refused', reason: problems.join('; ') });
  });
}

/** Evaluates from scratch (nothing is cached) and records every claim's verdict. */
async function evaluateAndRecord(
  store: Store,
  jobs: Array<[string, Job]>,
  clock: Clock,
  pending: ReadonlyMap<string, Verdict> = new Map(),
): Promise<JobVerdict[]> {
  const results = await addDurationVerdicts(
    withPending(await evaluateJobs(jobs, () => clock.wall()), pending),
    jobs,
    store,
    () => clock.wall(),
  );
  const at = clock.wall();
  store.transaction(() => {
    for (const result of results) {
      for (const claim of result.claims) {
        store.insert('evidence_results', {
          job: result.job,
          claim: claim.claim,
          at,
          verdict: claim.verdict,
          reason: claim.reason,
        });
      }
    }
  });
  return results;
}

/** A job whose English claim has no plan yet: its other claims' verdicts and the claim's unknown. */
function withPending(results: JobVerdict[], pending: ReadonlyMap<string, Verdict>): JobVerdict[] {
  return results.map((result) => {
    const verdict = pending.get(result.job);
    if (verdict === undefined) return result;
    const claims = [...result.claims, verdict];
    return { ...result, claims, verdict: combinedState(claims) };
  });
}

/** A refused job is a config to fix (78, as `config check` says), ahead of dead ones (1). */
function exitCodeFor(results: readonly JobVerdict[], refused: readonly RefusedJob[]): number {
  if (refused.length > 0) return ExitCode.CONFIG;
  return summarize(results).needsAttention ? ExitCode.ATTENTION : ExitCode.OK;
}
