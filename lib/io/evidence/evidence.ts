import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Claim, CommandClaim, FileClaim, HttpClaim, Job } from '../../core/config/config.ts';
import {
  chooseEvidence,
  claimName,
  combinedState,
  judgeFile,
  wantsSample,
  type JobVerdict,
  type Verdict,
} from '../../core/evidence/evidence.ts';
import { judgeCommand, judgeHttp, type HttpOutcome } from '../../core/evidence/probe-verdicts.ts';
import { checkLexicalScope } from '../../core/config/path-scope.ts';
import { runBounded } from '../process/bounded-run.ts';
import { judgeCount } from '../../core/evidence/file-count.ts';
import { GlobTooLargeError } from './glob.ts';
import { ERRNO_WORDS, hostFiles, hostTimeZone } from './host-files.ts';
import { evidencePlace, type EvidencePlace } from './evidence-place.ts';
import { judgeSql } from '../../core/evidence/sql.ts';
import { querySql } from './sql.ts';
import { mapBounded } from './map-bounded.ts';

/**
 * Evaluates evidence claims for real: files (stat, realpath, bounded reads — on this host, or in a
 * job's container: evidence-place.ts), commands (argv with a timeout), HTTP GETs and SQL queries
 * (sql.ts). Every failure of the check itself becomes an `unknown` verdict with
 * the reason; nothing here throws for a claim. Nothing is cached: each call looks afresh.
 */

/** Bytes read from each end of a large file for `min_lines` / `contains`; smaller files are read whole. */
export const SAMPLE_BYTES = 1024 * 1024;
const MAX_BODY_BYTES = 256 * 1024;
/** Checks in flight at once in `deadman check` and the evidence gate: a fleet of jobs is looked at in parallel, never all at once. */
export const CHECK_CONCURRENCY = 32;

/** `now` returns wall-clock milliseconds (file ages are measured against it); file facts come from `place` (default: this host). */
export async function evaluateClaim(
  claim: Claim,
  index: number,
  now: () => number,
  place: EvidencePlace = { files: hostFiles, now, timeZone: hostTimeZone() },
): Promise<Verdict> {
  const name = claimName(claim, index);
  try {
    switch (claim.kind) {
      case 'file':
        return await evaluateFile(claim, name, place);
      case 'command':
        return judgeCommand(claim, name, await runCommandClaim(claim));
      case 'http':
        return judgeHttp(claim, name, await getUrl(claim));
      case 'sql':
        return judgeSql(claim, name, await querySql(claim, now));
    }
  } catch (error) {
    return { claim: name, kind: claim.kind, verdict: 'unknown', reason: `check failed: ${describeError(error)}` };
  }
}

/** Evaluates claims with at most `concurrency` checks in flight; verdicts keep the claims' order. */
export async function evaluateClaims(
  claims: readonly Claim[],
  now: () => number,
  concurrency = CHECK_CONCURRENCY,
): Promise<Verdict[]> {
  return mapBounded(claims, concurrency, (claim, index) => evaluateClaim(claim, index, now));
}

/**
 * Evaluates every claim of the given jobs through one bounded pool; results keep the jobs' order.
 * A job whose container cannot be reached has every claim unknown, with the one line that says why.
 */
export async function evaluateJobs(
  jobs: ReadonlyArray<[name: string, job: Job]>,
  now: () => number,
  concurrency = CHECK_CONCURRENCY,
): Promise<JobVerdict[]> {
  const places = await mapBounded(jobs, concurrency, ([, job]) => evidencePlace(job, now));
  const work = jobs.flatMap(([, job], at) =>
    job.evidence.map((claim, index) => ({ claim, index, place: places[at]! })),
  );
  const verdicts = await mapBounded(work, concurrency, async ({ claim, index, place }): Promise<Verdict> =>
    'unreachable' in place
      ? { claim: claimName(claim, index), kind: claim.kind, verdict: 'unknown', reason: place.unreachable }
      : evaluateClaim(claim, index, now, place),
  );
  let offset = 0;
  return jobs.map(([name, job]) => {
    const claims = verdicts.slice(offset, (offset += job.evidence.length));
    return { job: name, verdict: combinedState(claims), claims };
  });
}

async function evaluateFile(claim: FileClaim, name: string, { files, now, timeZone }: EvidencePlace): Promise<Verdict> {
  const written = claim.path ?? claim.glob!;
  const lexical = checkLexicalScope(claim.root, written);
  if (!lexical.inside) return { claim: name, kind: 'file', verdict: 'dead', reason: lexical.reason };
  const paths = claim.path !== undefined ? [claim.path] : await files.expandGlob(written);
  const { resolvedRoot, candidates } = await files.inspect(claim.root, paths);
  const counted = judgeCount(claim, name, candidates, resolvedRoot);
  if (counted !== null) return counted;
  const choice = chooseEvidence(claim, candidates, resolvedRoot);
  const sample = choice.file && wantsSample(claim) ? await files.readSample(choice.file, SAMPLE_BYTES) : null;
  return judgeFile(claim, name, choice, sample, now(), timeZone);
}

function runCommandClaim(claim: CommandClaim) {
  return runBounded({ argv: claim.command, cwd: claim.cwd, timeoutMs: claim.timeout });
}

/**
 * One GET through node:http(s) rather than fetch: fetch refuses "bad ports" (6000, 6667, …)
 * that local health endpoints may use, and follows redirects. The body is read up to a bound.
 */
function getUrl(claim: HttpClaim): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const url = new URL(claim.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: HttpOutcome) => {
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const request = send(
      url,
      { method: 'GET', agent: false, headers: { 'user-agent': 'deadman-check' } },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        const done = () =>
          settle({ kind: 'response', status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk.subarray(0, MAX_BODY_BYTES - bytes));
          bytes += chunk.length;
          if (bytes >= MAX_BODY_BYTES) done();
        });
        response.on('end', done);
        // A body cut off mid-way is a failed check, not a response to judge by its first half.
        response.on('error', (error) => settle({ kind: 'failed', error: describeError(error) }));
      },
    );
    request.on('error', (error) => settle({ kind: 'failed', error: describeError(error) }));
    if (claim.timeout > 0) {
      timer = setTimeout(
        () => settle({ kind: 'timed-out', afterMs: Math.round(performance.now() - started) }),
        claim.timeout,
      );
    }
    request.end();
  });
}

/** A one-line cause, in errno words where known. */
function describeError(error: unknown): string {
  if (error instanceof GlobTooLargeError) return error.message;
  const err = error as NodeJS.ErrnoException;
  if (err.code !== undefined) {
    const words = ERRNO_WORDS[err.code] ?? err.code;
    return err.syscall && err.path ? `${words} (${err.syscall} ${err.path})` : words;
  }
  return (err.message ?? String(error)).split('\n')[0]!;
}
