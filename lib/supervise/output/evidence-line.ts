/** How much of one line the evidence keeps. */
const LINE_CHARS = 500;

/**
 * A long line cut at LINE_CHARS, and the word the cut falls in dropped with it: these lines are
 * redacted downstream (the store, the alerts, the diagnostician's packet), and a secret split by
 * the cut would keep a head that no shape recognizes there ("sk-proj-AbCd…").
 */
export function cutLongLine(line: string): string {
  if (line.length <= LINE_CHARS) return line;
  const kept = line.slice(0, LINE_CHARS);
  return `${/\s/.test(line[LINE_CHARS]!) ? kept : kept.replace(/\S+$/, '')}…`;
}
