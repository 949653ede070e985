import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { claimSchema, type Job } from '../lib/core/config/config.ts';
import { evaluateJobs } from '../lib/io/evidence/evidence.ts';

/**
 * `deadman check` over 1,000 jobs × 3 file claims must finish in under 2 s. Builds a tree of
 * real files (a fresh export, a backup, a directory of logs matched by a glob), then times the
 * evaluation in-process and the whole command (Node start, config, SQLite records) as a user
 * runs it. Prints both figures; exits 1 when either is over budget.
 */

const JOBS = 1000;
const BUDGET_MS = 2000;

export async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'deadman-bench-check-'));
  try {
    const { jobs, toml } = buildFixture(dir);
    const started = performance.now();
    const results = await evaluateJobs(jobs, Date.now);
    const evaluateMs = performance.now() - started;
    const alive = results.filter((r) => r.verdict === 'alive').length;
    if (alive !== JOBS - 1) throw new Error(`expected ${JOBS - 1} alive jobs and one dead, got ${alive} alive`);

    writeFileSync(join(dir, 'deadman.toml'), toml);
    const bin = new URL('../../bin/deadman.js', import.meta.url).pathname;
    const cliStarted = performance.now();
    const cli = spawnSync(
      process.execPath,
      [bin, 'check', '--config', join(dir, 'deadman.toml'), '--database', join(dir, 'state', 'deadman.db')],
      { encoding: 'utf8' },
    );
    const cliMs = performance.now() - cliStarted;
    const summary = cli.stdout.trim().split('\n').pop();
    if (cli.status !== 1 || summary !== `${JOBS} checked | 1 green and dead | ${JOBS - 1} alive`) {
      throw new Error(`deadman check ended ${cli.status}: ${summary} ${cli.stderr}`);
    }
    process.stdout.write(
      `check-jobs: ${JOBS} jobs × 3 file claims evaluated in ${Math.round(evaluateMs)} ms; ` +
        `\`deadman check\` end to end (start-up, config, records) in ${Math.round(cliMs)} ms (budget ${BUDGET_MS} ms)\n`,
    );
    return evaluateMs < BUDGET_MS && cliMs < BUDGET_MS ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One directory per job; job 0's export is empty, so exactly one job is dead. */
function buildFixture(dir: string): { jobs: Array<[string, Job]>; toml: string } {
  const jobs: Array<[string, Job]> = [];
  const toml: string[] = [];
  const hourAgo = (Date.now() - 3_600_000) / 1000;
  for (let i = 0; i < JOBS; i++) {
    const root = join(dir, `job-${i}`);
    mkdirSync(join(root, 'logs'), { recursive: true });
    writeFileSync(join(root, 'export.csv'), i === 0 ? '' : 'id,value\n1,2\n');
    writeFileSync(join(root, 'backup.tar.gz'), 'x'.repeat(2048));
    for (const day of ['2026-09-08', '2026-09-09', '2026-09-10'])
      writeFileSync(join(root, 'logs', `run-${day}.log`), 'done\n');
    utimesSync(join(root, 'backup.tar.gz'), hourAgo, hourAgo);
    const claims = [
      { kind: 'file', root, path: join(root, 'export.csv'), non_empty: true, max_age: '6h' },
      { kind: 'file', root, path: join(root, 'backup.tar.gz'), min_bytes: 1024, max_age: '1d' },
      { kind: 'file', root, glob: join(root, 'logs', '*.log'), non_empty: true, max_age: '1d' },
    ];
    jobs.push([
      `job-${i}`,
      { rerun: ['/bin/true'], timeout: 60_000, evidence: claims.map((c) => claimSchema.parse(c)) },
    ]);
    toml.push(
      `[jobs.job-${i}]\nrerun = ["/bin/true"]\n${claims.map((c) => `[[jobs.job-${i}.evidence]]\n${tomlPairs(c)}`).join('\n')}`,
    );
  }
  return { jobs, toml: toml.join('\n\n') };
}

function tomlPairs(claim: Record<string, unknown>): string {
  return Object.entries(claim)
    .map(([key, value]) => `${key} = ${JSON.stringify(value)}`)
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
