import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jobSchema, type Job } from '../lib/core/config/config.ts';
import type { VerdictState } from '../lib/core/evidence/evidence.ts';
import { CHECK_CONCURRENCY, evaluateJobs } from '../lib/io/evidence/evidence.ts';
import { claimCorpus, writeCaseFiles, type ClaimCase } from './helpers/claims-corpus.ts';
import { readClaim } from '../lib/core/claims/read-claim.ts';
import { table } from './helpers/figures.ts';

/**
 * How often deadman's verdicts on green-but-dead claims are right (issue 34 item 7): the corpus
 * of bench/helpers/claims-corpus.ts — each claim's typed plan over real files in alive and
 * dead shapes — through deadman's own evaluator, then accuracy and false alives (a dead job
 * called alive: the failure that matters) against 100 % and 0. Then a fleet digest: 100 of
 * those jobs through `deadman check` as a user runs it, its wall time printed. The same cases are
 * judged once more from their English sentences alone, through deadman's claim reader
 * (lib/core/claims/): a sentence it refuses counts as wrong, never as alive.
 */

const FLEET = 100;
const FLEET_BUDGET_MS = 2000;

export interface CorpusScore {
  cases: number;
  correct: number;
  /** Expected dead, judged alive. */
  falseAlive: number;
  /** Every case judged otherwise than expected: its id, what was expected and what came. */
  wrong: Array<{ id: string; expected: VerdictState; got: VerdictState; reasons: string[] }>;
  evaluateMs: number;
}

/** Each case as a job of `deadman check`, named after its tree's directory. */
export function corpusJobs(cases: readonly ClaimCase[]): Array<[string, Job]> {
  return cases.map((item) => [
    basename(String(item.plan[0]!.root)),
    jobSchema.parse({ rerun: ['/bin/true'], evidence: item.plan }),
  ]);
}

/**
 * Writes every tree under `dir` and judges every case with deadman's evaluator: from its typed
 * plan, or (`from: 'sentence'`) from the plan the claim reader makes of its English sentence.
 */
export async function scoreCorpus(dir: string, from: 'plan' | 'sentence' = 'plan'): Promise<CorpusScore> {
  const cases = claimCorpus(dir);
  const now = Date.now();
  for (const item of cases) writeCaseFiles(item, now);
  const readings = cases.map((item) =>
    from === 'plan' ? { ok: true as const, inputs: item.plan } : readClaim(item.sentence),
  );
  const read = cases.flatMap((item, i) => {
    const reading = readings[i]!;
    return reading.ok ? [{ item, job: corpusJobs([{ ...item, plan: reading.inputs }])[0]! }] : [];
  });
  const started = performance.now();
  const results = await evaluateJobs(
    read.map((r) => r.job),
    Date.now,
  );
  const evaluateMs = performance.now() - started;
  const refused = cases.flatMap((item, i) => {
    const reading = readings[i]!;
    return reading.ok
      ? []
      : [
          {
            id: item.id,
            expected: item.expected,
            got: 'unknown' as const,
            reasons: [`refused: ${reading.refusal.reason}`],
          },
        ];
  });
  const misjudged = read.flatMap(({ item }, i) => {
    const got = results[i]!;
    return got.verdict === item.expected
      ? []
      : [{ id: item.id, expected: item.expected, got: got.verdict, reasons: got.claims.map((c) => c.reason) }];
  });
  const wrong = [...refused, ...misjudged];
  return {
    cases: cases.length,
    correct: cases.length - wrong.length,
    falseAlive: wrong.filter((w) => w.got === 'alive').length,
    wrong,
    evaluateMs,
  };
}

export async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'deadman-bench-claims-'));
  try {
    const score = await scoreCorpus(dir);
    const english = await scoreCorpus(dir, 'sentence');
    const fleet = fleetDigest(dir);
    const accuracy = (100 * score.correct) / score.cases;
    process.stdout.write(
      `claims: ${score.cases} green-but-dead cases (claim × file tree × expected verdict) through deadman's evaluator\n`,
    );
    process.stdout.write(
      table([
        {
          what: 'accuracy',
          value: `${accuracy.toFixed(1)} % (${score.correct}/${score.cases})`,
          target: '100 %',
          pass: score.correct === score.cases,
        },
        {
          what: 'false alive (dead judged alive)',
          value: String(score.falseAlive),
          target: '0',
          pass: score.falseAlive === 0,
        },
        { what: '  corpus evaluated in', value: `${Math.round(score.evaluateMs)} ms`, target: '', pass: null },
        {
          what: 'from the English sentences alone: accuracy',
          value: `${((100 * english.correct) / english.cases).toFixed(1)} % (${english.correct}/${english.cases})`,
          target: '100 %',
          pass: english.correct === english.cases,
        },
        { what: '  false alive', value: String(english.falseAlive), target: '0', pass: english.falseAlive === 0 },
        {
          what: `fleet digest: \`deadman check\` of ${FLEET} jobs`,
          value: `${Math.round(fleet.wallMs)} ms wall`,
          target: `< ${FLEET_BUDGET_MS} ms`,
          pass: fleet.wallMs < FLEET_BUDGET_MS,
        },
        {
          what: `  at most ${CHECK_CONCURRENCY} checks in flight; summary`,
          value: fleet.summary,
          target: '',
          pass: null,
        },
        {
          what: '  start-up alone (`deadman --version`) on this host',
          value: `${Math.round(fleet.startupMs)} ms`,
          target: '',
          pass: null,
        },
      ]),
    );
    for (const w of score.wrong)
      process.stdout.write(`  WRONG ${w.id}: expected ${w.expected}, got ${w.got}: ${w.reasons.join('; ')}\n`);
    for (const w of english.wrong)
      process.stdout.write(
        `  WRONG from its sentence ${w.id}: expected ${w.expected}, got ${w.got}: ${w.reasons.join('; ')}\n`,
      );
    return score.wrong.length === 0 && english.wrong.length === 0 && fleet.ok && fleet.wallMs < FLEET_BUDGET_MS ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** FLEET cases spread over the corpus (their trees already under `dir`) as one deadman.toml, checked end to end by the CLI. */
function fleetDigest(dir: string): { wallMs: number; startupMs: number; summary: string; ok: boolean } {
  const corpus = claimCorpus(dir);
  const cases = Array.from({ length: FLEET }, (_, i) => corpus[Math.floor((i * corpus.length) / FLEET)]!);
  const toml = corpusJobs(cases).map(([name], i) =>
    [
      `[jobs.${name}]`,
      'rerun = ["/bin/true"]',
      ...cases[i]!.plan.flatMap((claim) => [
        `[[jobs.${name}.evidence]]`,
        ...Object.entries(claim).map(([key, value]) => `${key} = ${JSON.stringify(value)}`),
      ]),
    ].join('\n'),
  );
  writeFileSync(join(dir, 'deadman.toml'), toml.join('\n\n'));
  const dead = cases.filter((c) => c.expected === 'dead').length;
  const expected = `${FLEET} checked | ${dead} green and dead | ${FLEET - dead} alive`;
  const bin = new URL('../../bin/deadman.js', import.meta.url).pathname;
  const started = performance.now();
  const cli = spawnSync(
    process.execPath,
    [bin, 'check', '--config', join(dir, 'deadman.toml'), '--database', join(dir, 'state', 'deadman.db')],
    { encoding: 'utf8' },
  );
  const wallMs = performance.now() - started;
  const summary = cli.stdout.trim().split('\n').pop() ?? cli.stderr.trim();
  // What any command pays before it looks at a job: on a busy host most of the wall time.
  const startupStarted = performance.now();
  spawnSync(process.execPath, [bin, '--version'], { stdio: 'ignore' });
  return {
    wallMs,
    startupMs: performance.now() - startupStarted,
    summary,
    ok: cli.status === 1 && summary === expected,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
