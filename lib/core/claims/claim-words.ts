import { AGE_UNITS, LINE_WORDS, NUMBER_WORDS, SIZE_UNITS } from './quantity-words.ts';

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
