/** The candidate nearest to `word` (edit distance at most a third of its length, at least 2), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const found = nearestByDistance(word, candidates);
  return found !== undefined && found.distance <= Math.max(2, Math.floor(word.length / 3))
    ? found.candidate
    : undefined;
}

/** The candidate nearest to `word` however far it is (the first of equals), if there is any candidate. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  return nearestByDistance(word, candidates)?.candidate;
}

function nearestByDistance(
  word: string,
  candidates: readonly string[],
): { candidate: string; distance: number } | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
