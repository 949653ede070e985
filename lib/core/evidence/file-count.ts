import type { FileClaim } from '../config/config.ts';
import { checkPathScope } from '../config/path-scope.ts';
import type { Candidate, Verdict } from './evidence.ts';

/**
 * `min_count` and `max_count` of a file claim: how many in-scope regular files it matched. A
 * drained spool (`max_count = 0`, "no files left in /var/spool/queue") is alive with nothing
 * there, so it is judged here, before the newest file is chosen. Null: the count holds, and the
 * file's other keys decide.
 */
export function judgeCount(
  claim: FileClaim,
  name: string,
  candidates: readonly Candidate[],
  resolvedRoot: string,
): Verdict | null {
  if (claim.min_count === undefined && claim.max_count === undefined) return null;
  const verdict = (state: Verdict['verdict'], reason: string): Verdict => ({
    claim: name,
    kind: 'file',
    verdict: state,
    reason,
  });
  const failed = candidates.find((c) => c.state === 'error');
  if (failed) return verdict('unknown', `cannot inspect ${failed.path}: ${failed.error}`);
  const count = candidates.filter(
    (c) =>
      c.state === 'present' &&
      c.isFile &&
      checkPathScope({ root: claim.root, path: c.path, resolvedRoot, resolvedPath: c.resolved }).inside,
  ).length;
  const written = claim.path ?? claim.glob!;
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  if (claim.max_count !== undefined && count > claim.max_count) {
    return verdict(
      'dead',
      claim.max_count === 0
        ? `${files(count)} left matching ${written} (expected none)`
        : `${files(count)} match ${written} (expected at most ${claim.max_count})`,
    );
  }
  if (claim.min_count !== undefined && count < claim.min_count)
    return verdict('dead', `${files(count)} match ${written} (expected at least ${claim.min_count})`);
  return claim.max_count === 0 ? verdict('alive', `no file left matching ${written}`) : null;
}
