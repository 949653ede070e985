import type { CommandModule } from 'yargs';
import type { Config, Job } from '../core/config/config.ts';
import { checkDocument, jobBlock } from '../core/evidence/check-report.ts';
import { needsAttention, summarize, type JobVerdict } from '../core/evidence/evidence.ts';
import { configError, ExitCode, usageError } from '../exit-codes.ts';
import { systemClock } from '../io/clock.ts';
import { evaluateJobs } from '../io/evidence/evidence.ts';
import type { Store } from '../io/store/store.ts';
import { fixJob, type FixSession } from './check-fix.ts';
import { loadContext, openStore, stateOptions, type CommonArgs } from './command-context.ts';

/**
 * `deadman check [JOB…]`: audits the scheduled jobs of `[jobs.NAME]` by the evidence they should
 * have left, so a job that exits 0 and writes nothing ("green but dead") shows up. Exit 1 when
 * any job is dead or unknown; every verdict is recorded in `evidence_results`.
 */

interface CheckArgs extends CommonArgs {
  jobs?: string[];
  json?: boolean;
  verbose?: boolean;
  fix?: boolean;
  yes?: boolean;
}

export const checkCommand: CommandModule<object, CheckArgs> = {
  command: 'check [jobs..]',
  describe: 'audit scheduled jobs by the evidence they should leave (green but dead?)',
  builder: (y) => y
    .positional('jobs', { type: 'string', array: true, describe: 'names of [jobs.NAME] to check (default: all)' })
    .option('json', { type: 'boolean', describe: 'print the verdicts as one JSON document' })
    .option('verbose', { alias: 'v', type: 'boolean', describe: 'also print one line per healthy job' })
    .option('fix', { type: 'boolean', describe: 'offer each dead job\'s rerun command, asking for approval on the terminal' })
    .option('yes', { type: 'boolean', implies: 'fix', describe: 'approve every rerun without asking (with --fix)' })
    .options(stateOptions)
    .conflicts('json', 'fix'),
  handler: async (args) => {
    process.exitCode = await runCheck(args);
  },
};

async function runCheck(args: CheckArgs): Promise<number> {
  const context = await loadContext(args);
  const selected = selectJobs(context.config, args.jobs ?? [], context.file);
  const store = openStore(context);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const fixSession: FixSession = { store, out, assumeYes: args.yes === true, prompt: undefined };
  try {
    const results = await evaluateAndRecord(store, selected);
    if (args.json) {
      const reruns = Object.fromEntries(selected.map(([name, job]) => [name, job.rerun]));
      out(JSON.stringify(checkDocument(results, summarize(results), reruns), null, 2));
      return exitCodeFor(results);
    }
    const final: JobVerdict[] = [];
    for (const [i, [name, job]] of selected.entries()) {
      const result = results[i]!;
      if (needsAttention(result)) for (const line of jobBlock(result, job.rerun)) out(line);
      else if (args.verbose) out(jobBlock(result, null)[0]!);
      const fixed = args.fix && result.verdict === 'dead' ? await fixJob(fixSession, name, job, result, () => evaluateAndRecord(store, [[name, job]])) : null;
      final.push(fixed ?? result);
    }
    out(summarize(final).line);
    return exitCodeFor(final);
  } finally {
    fixSession.prompt?.close();
    store.close();
  }
}

/** The named jobs (all when none are named), in the config's order; an unknown name is a usage error. */
function selectJobs(config: Config, names: readonly string[], file: string | null): Array<[string, Job]> {
  const configured = Object.entries(config.jobs);
  if (configured.length === 0) {
    throw configError(`${file ?? 'no config file'}: no jobs to check; add a [jobs.NAME] table with rerun and [[jobs.NAME.evidence]] claims`);
  }
  const unknown = names.filter((name) => !(name in config.jobs));
  if (unknown.length > 0) {
    throw usageError(`unknown job ${unknown.map((n) => `"${n}"`).join(', ')}; configured jobs: ${configured.map(([n]) => n).join(', ')}`);
  }
  return names.length === 0 ? configured : configured.filter(([name]) => names.includes(name));
}

/** Evaluates from scratch (nothing is cached) and records every claim's verdict. */
async function evaluateAndRecord(store: Store, jobs: Array<[string, Job]>): Promise<JobVerdict[]> {
  const results = await evaluateJobs(jobs, systemClock.wall);
  const at = systemClock.wall();
  store.transaction(() => {
    for (const result of results) {
      for (const claim of result.claims) {
        store.insert('evidence_results', { job: result.job, claim: claim.claim, at, verdict: claim.verdict, reason: claim.reason });
      }
    }
  });
  return results;
}

function exitCodeFor(results: readonly JobVerdict[]): number {
  return summarize(results).needsAttention ? ExitCode.ATTENTION : ExitCode.OK;
}
