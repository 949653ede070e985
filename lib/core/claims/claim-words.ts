/**
 * The words the claim reader knows, in the forms people write them. Each table maps a word to
 * what it contributes; a word in none of them is refused (read-claim.ts). Kept as data so that
 * the docs, the refusals' "nearest word" and the reader all draw on one list.
 */

/** Words that carry no meaning of their own in a claim ("a", "is", "file"). */
export const FILLER_WORDS = new Set([
  'a', 'an', 'the', 'one', 'some', 'any', 'is', 'are', 'be', 'been', 'was', 'were', 'should', 'must', 'will', 'has', 'have', 'had',
  'with', 'that', 'which', 'it', 'its', 'there', 'exist', 'exists', 'file', 'files', 'also', 'each', 'latest', 'newest', 'new', 'fresh',
  'directory', 'folder', 'dir', 'left', 'remaining', 'remain', 'waiting', 'pending', 'line', 'row', 'of', 'by', 'job',
  'matching', 'matches',
]);

/** Conjunctions between parts of one claim: every part must hold. */
export const CONJUNCTIONS = new Set(['and', 'but', 'plus']);

/** Nouns for the file a job leaves: any file name (the where and the type narrow it). */
export const FILE_NOUNS = new Set([
  'export', 'exports', 'backup', 'backups', 'report', 'reports', 'dump', 'dumps', 'archive', 'archives', 'snapshot', 'snapshots',
  'output', 'outputs', 'result', 'results', 'extract', 'extracts', 'copy', 'copies',
]);

/** Type words → the file name ending they stand for. */
export const TYPE_WORDS: Readonly<Record<string, string>> = {
  csv: '.csv', csvs: '.csv', tsv: '.tsv', json: '.json', jsonl: '.jsonl', ndjson: '.ndjson', xml: '.xml', yaml: '.yaml', yml: '.yml',
  log: '.log', logs: '.log', logfile: '.log', txt: '.txt', text: '.txt', parquet: '.parquet', sql: '.sql', pdf: '.pdf', html: '.html',
  tarball: '.tar.gz', tarballs: '.tar.gz', tar: '.tar', gzip: '.gz', gz: '.gz', zip: '.zip', sqlite: '.sqlite', db: '.db',
};

/** Verbs of writing: they introduce an age ("modified in the last 6 hours") and mean nothing alone. */
export const WRITE_VERBS = new Set([
  'modified', 'written', 'updated', 'changed', 'touched', 'created', 'produced', 'generated', 'refreshed', 'made', 'saved', 'dated', 'rotated',
]);

/** Age units → milliseconds. */
export const AGE_UNITS: Readonly<Record<string, number>> = {
  second: 1000, seconds: 1000, sec: 1000, secs: 1000, s: 1000,
  minute: 60_000, minutes: 60_000, min: 60_000, mins: 60_000, m: 60_000,
  hour: 3_600_000, hours: 3_600_000, hr: 3_600_000, hrs: 3_600_000, h: 3_600_000,
  day: 86_400_000, days: 86_400_000, d: 86_400_000,
  week: 604_800_000, weeks: 604_800_000, w: 604_800_000,
};

/** Size units → bytes: KB, MB, GB are decimal (1000), KiB, MiB, GiB binary (1024), as `ls --si` and `ls -h` print them. */
export const SIZE_UNITS: Readonly<Record<string, number>> = {
  byte: 1, bytes: 1, b: 1, kb: 1000, k: 1000, kib: 1024, mb: 1_000_000, mib: 1_048_576, gb: 1_000_000_000, gib: 1_073_741_824,
};

/** What a count of lines is called. */
export const LINE_WORDS = new Set(['lines', 'line', 'rows', 'row', 'records', 'record', 'entries', 'entry']);

/** Numbers written as words ("in the last two hours"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};

/** Words that start a phrase the reader reads as a whole (read-claim.ts has one rule each). */
export const PHRASE_WORDS = [
  'under', 'in', 'inside', 'within', 'at', 'named', 'called', 'non-empty', 'nonempty', 'not', 'empty', 'at', 'least', 'more', 'than',
  'over', 'larger', 'bigger', 'greater', 'fewer', 'newer', 'younger', 'less', 'no', 'older', 'old', 'most', 'last', 'past', 'today',
  'from', 'since', 'midnight', 'contains', 'containing', 'contain', 'header', 'headers', 'starting', 'starts', 'first', 'nothing', 'or',
];

/** Every word the reader knows, for the nearest-word hint of a refusal. */
export function knownWords(): string[] {
  return [...new Set([
    ...FILLER_WORDS, ...CONJUNCTIONS, ...FILE_NOUNS, ...Object.keys(TYPE_WORDS), ...WRITE_VERBS, ...Object.keys(AGE_UNITS),
    ...Object.keys(SIZE_UNITS), ...LINE_WORDS, ...Object.keys(NUMBER_WORDS), ...PHRASE_WORDS,
  ])].filter((word) => word.length > 1);
}
