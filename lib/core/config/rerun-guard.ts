/**
 * A job's `rerun` is run for real after one "y", so what cannot be a command is refused when the
 * config loads, never offered: an English sentence ("Run the backup script again by hand") or a
 * template left unfilled (`/path/to/…`, `<host>`, `YOUR_TOKEN`, `example.com`). The rule is
 * lexical and the same on every host (no PATH lookup: `config check` on a laptop must say what
 * the server's `check` says), and errs towards passing a real command:
 *
 * - A sentence: a program word that is no path and holds spaces (one string instead of an argv),
 *   or three or more words made only of letters (a trailing . , ; : ! ? allowed) of which the
 *   first is Capitalized or one is a small English function word. `systemctl start
 *   backup.service` (a dot inside a word), `sh -c '…'` (a flag) and `/usr/bin/logrotate …` (a
 *   path) never read as one.
 * - A placeholder: any word holding `/path/to`, `<word>`, `YOUR_`, or an RFC 2606 example domain.
 *
 * Pure; the reason is one phrase that completes "rerun …".
 */

const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'by',
  'to',
  'of',
  'in',
  'on',
  'and',
  'or',
  'then',
  'again',
  'hand',
  'manually',
  'please',
  'it',
  'its',
  'this',
  'that',
  'with',
  'from',
  'for',
  'when',
  'if',
  'should',
  'must',
]);

const PLACEHOLDERS: ReadonlyArray<[RegExp, string]> = [
  [/\/path\/to\b/i, '/path/to'],
  [/<[A-Za-z.…][\w.…-]*>/, '<…>'],
  [/\bYOUR_/i, 'YOUR_…'],
  [/\bexample\.(com|org|net)\b/i, 'example.com'],
];

/** Why this rerun argv must not run, or null when it may. */
export function rerunProblem(argv: readonly string[]): string | null {
  for (const word of argv) {
    const hit = PLACEHOLDERS.find(([pattern]) => pattern.test(word));
    if (hit) return `holds a placeholder (${hit[1]} in "${word}"); write the real command`;
  }
  const program = argv[0] ?? '';
  if (program.includes('/')) return null;
  const words = /\s/.test(program) ? program.trim().split(/\s+/) : argv;
  if (readsAsSentence(words))
    return 'reads as an English sentence, not a command; give the program and its arguments as a list, e.g. ["systemctl", "start", "backup.service"]';
  if (words !== argv) return `names a program with spaces ("${program}"); give each word as its own list item`;
  return null;
}

function readsAsSentence(words: readonly string[]): boolean {
  const bare = words.map((w) => w.replace(/[.,;:!?]$/, ''));
  if (bare.length < 3 || !bare.every((w) => /^[A-Za-z]+(['’-][A-Za-z]+)*$/.test(w))) return false;
  return /^[A-Z][a-z]/.test(bare[0]!) || bare.some((w) => FUNCTION_WORDS.has(w.toLowerCase()));
}
