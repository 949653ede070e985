import { mkdirSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The green-but-dead corpus of bench/claims.ts (issue 34 item 7): claims a person writes about
 * a job's files — each as the English sentence and as the typed plan (the `[[evidence]]`
 * claims, as deadman.toml holds them) it stands for — crossed with file trees that make it hold
 * ("alive") or not ("dead": empty, stale, too small, missing, wrong content …). Every claim has
 * an alive shape and at least one dead one. The sentences use issue 34's vocabulary (what,
 * where, size, age, content, conjunctions), so the English claim reader's plan for each can be
 * compared with the typed one. Sizes and ages sit far from each bound: a verdict here never
 * turns on 1000 versus 1024 or on a second of clock.
 */

/** One file of a tree: its bytes (sparse when only `bytes` is given) and its age at `now`. */
export interface FileSpec {
  path: string;
  content?: string;
  bytes?: number;
  ageMs: number;
}

export interface ClaimCase {
  /** `template-N/shape`, unique. */
  id: string;
  /** What a person would write in `claim = "…"`. */
  sentence: string;
  /** The typed claims the sentence stands for, as deadman.toml holds them (durations as spans). */
  plan: Array<Record<string, unknown>>;
  files: FileSpec[];
  /** `alive`, or what makes this tree dead. */
  shape: string;
  expected: 'alive' | 'dead';
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A claim before it has a root: its words, its plan and its trees, all under `root`. */
interface Template {
  sentence(root: string): string;
  plan(root: string): Array<Record<string, unknown>>;
  /** `alive` and one or more dead shapes. */
  trees(root: string): Record<string, FileSpec[]>;
}

const AGES = [
  { words: '6 hours', span: '6h', ms: 6 * HOUR },
  { words: '30 minutes', span: '30min', ms: 30 * MIN },
  { words: '2 days', span: '2d', ms: 2 * DAY },
  { words: '1 week', span: '1w', ms: 7 * DAY },
];
const KINDS = [
  { word: 'CSV', ext: 'csv', body: 'id,value\n1,2\n' },
  { word: 'JSON file', ext: 'json', body: '{"rows": 2}\n' },
  { word: 'log', ext: 'log', body: 'started\nfinished\n' },
  { word: 'tarball', ext: 'tar.gz', body: 'x'.repeat(600) },
];
const fresh = 2 * MIN;
const file = (path: string, content: string, ageMs = fresh): FileSpec => ({ path, content, ageMs });
const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "a non-empty CSV under DIR, modified in the last 6 hours": a glob by extension, non_empty, max_age. */
function freshKind(): Template[] {
  const out: Template[] = [];
  const verbs = ['modified', 'written', 'updated'];
  for (const [k, kind] of KINDS.entries()) {
    for (const [a, age] of AGES.entries()) {
      for (const where of ['under', 'in']) {
        const verb = verbs[(k + a) % verbs.length]!;
        const dir = (root: string) => join(root, where === 'under' ? 'out/export' : 'spool');
        const other = KINDS[(k + 1) % KINDS.length]!;
        out.push({
          sentence: (root) => `a non-empty ${kind.word} ${where} ${dir(root)}, ${verb} in the last ${age.words}`,
          plan: (root) => [
            { kind: 'file', root, glob: `${dir(root)}/*.${kind.ext}`, non_empty: true, max_age: age.span },
          ],
          trees: (root) => ({
            alive: [
              file(`${dir(root)}/old.${kind.ext}`, kind.body, age.ms * 3),
              file(`${dir(root)}/new.${kind.ext}`, kind.body, age.ms / 4),
            ],
            empty: [
              file(`${dir(root)}/old.${kind.ext}`, kind.body, age.ms * 3),
              file(`${dir(root)}/new.${kind.ext}`, '', age.ms / 4),
            ],
            stale: [file(`${dir(root)}/old.${kind.ext}`, kind.body, age.ms * 3)],
            'wrong-kind': [file(`${dir(root)}/new.${other.ext}`, other.body, age.ms / 4)],
          }),
        });
      }
    }
  }
  return out;
}

/** "the file PATH, at least 4 KB": one named file and a size floor. */
function namedSize(): Template[] {
  const sizes = [
    { words: 'at least 512 bytes', bytes: 512 },
    { words: 'at least 4 KB', bytes: 4096 },
    { words: 'at least 20 KB', bytes: 20 * 1024 },
    { words: 'at least 1 MB', bytes: 1024 * 1024 },
  ];
  const names = ['backup/db-dump.tar.gz', 'export/customers.csv', 'reports/daily.json', 'archive/site.tar'];
  return names.flatMap((name, n) =>
    sizes.map((size, s) => ({
      sentence: (root: string) =>
        (n + s) % 2 === 0
          ? `the file ${join(root, name)}, ${size.words}`
          : `${join(root, name)} exists and is ${size.words}`,
      plan: (root: string) => [{ kind: 'file', root, path: join(root, name), min_bytes: size.bytes }],
      trees: (root: string) => ({
        alive: [{ path: join(root, name), bytes: size.bytes * 2, ageMs: fresh }],
        'too-small': [{ path: join(root, name), bytes: Math.floor(size.bytes / 2), ageMs: fresh }],
        missing: [file(join(root, `${name}.partial`), 'x'.repeat(size.bytes))],
      }),
    })),
  );
}

/** "a log in DIR with more than N lines, written within the last day": min_lines (N + 1) and max_age. */
function lineCount(): Template[] {
  const ages = [
    { words: 'the last day', span: '1d', ms: DAY },
    { words: 'the last 12 hours', span: '12h', ms: 12 * HOUR },
  ];
  return [10, 100, 1000].flatMap((count) =>
    ['logs', 'var/log/job'].flatMap((sub) =>
      ages.map((age) => ({
        sentence: (root: string) =>
          `a log in ${join(root, sub)} with more than ${count} lines, written within ${age.words}`,
        plan: (root: string) => [
          { kind: 'file', root, glob: `${join(root, sub)}/*.log`, min_lines: count + 1, max_age: age.span },
        ],
        trees: (root: string) => ({
          alive: [file(`${join(root, sub)}/run.log`, lines(count * 2), age.ms / 4)],
          'too-few-lines': [file(`${join(root, sub)}/run.log`, lines(Math.floor(count / 2)), age.ms / 4)],
          stale: [file(`${join(root, sub)}/run.log`, lines(count * 2), age.ms * 3)],
        }),
      })),
    ),
  );
}

/** `PATH containing "done"`: a named file and the text it must hold. */
function containsText(): Template[] {
  const needles = ['"status": "ok"', 'DONE', 'exported with 0 errors', 'checksum OK'];
  const names = ['status.json', 'out/result.txt'];
  return needles.flatMap((needle) =>
    names.map((name) => ({
      sentence: (root: string) =>
        needle.includes('"')
          ? `${join(root, name)} containing '${needle}'`
          : `${join(root, name)} containing "${needle}"`,
      plan: (root: string) => [{ kind: 'file', root, path: join(root, name), contains: escapeRegex(needle) }],
      trees: (root: string) => ({
        alive: [file(join(root, name), `run 42\n${needle}\n`)],
        'other-content': [file(join(root, name), 'run 42\nstill running\n')],
        missing: [],
      }),
    })),
  );
}

/** "a CSV under DIR with the header id,name": the newest CSV must start a line with the header. */
function header(): Template[] {
  const headers = ['id,name,amount', 'date,total', 'sku,qty,price'];
  return headers.flatMap((head) =>
    ['export', 'out/csv'].map((sub) => ({
      sentence: (root: string) => `a CSV under ${join(root, sub)} with the header "${head}"`,
      plan: (root: string) => [
        { kind: 'file', root, glob: `${join(root, sub)}/*.csv`, contains: `^${escapeRegex(head)}` },
      ],
      trees: (root: string) => ({
        alive: [file(`${join(root, sub)}/today.csv`, `${head}\n1,2,3\n`)],
        'other-header': [file(`${join(root, sub)}/today.csv`, 'error,message\n1,failed\n')],
        'no-csv': [file(`${join(root, sub)}/today.txt`, `${head}\n1,2,3\n`)],
      }),
    })),
  );
}

/** "a non-empty CSV under A, modified in the last 6 hours, and a tarball under B of at least 1 KB": two claims. */
function conjunction(): Template[] {
  return AGES.slice(0, 3).flatMap((age) =>
    [1, 8].map((kb) => ({
      sentence: (root: string) =>
        `a non-empty CSV under ${join(root, 'export')}, modified in the last ${age.words}, and a tarball under ${join(root, 'backup')} of at least ${kb} KB`,
      plan: (root: string) => [
        { kind: 'file', root, glob: `${join(root, 'export')}/*.csv`, non_empty: true, max_age: age.span },
        { kind: 'file', root, glob: `${join(root, 'backup')}/*.tar.gz`, min_bytes: kb * 1024 },
      ],
      trees: (root: string) => {
        const csv = file(join(root, 'export/a.csv'), 'id\n1\n', age.ms / 4);
        const tarball: FileSpec = { path: join(root, 'backup/b.tar.gz'), bytes: kb * 2048, ageMs: fresh };
        return {
          alive: [csv, tarball],
          'first-stale': [{ ...csv, ageMs: age.ms * 3 }, tarball],
          'second-small': [csv, { ...tarball, bytes: kb * 256 }],
        };
      },
    })),
  );
}

/** "a file matching GLOB, newer than 3 days": the glob as written. */
function globAge(): Template[] {
  return [
    ['*-daily.json', '2 days', '2d', 2 * DAY],
    ['report-*.pdf', '3 days', '3d', 3 * DAY],
    ['*.parquet', '1 day', '1d', DAY],
    ['dump-*.sql.gz', '1 week', '1w', 7 * DAY],
  ].map(([pattern, words, span, ms]) => ({
    sentence: (root: string) => `a file matching ${join(root, 'out')}/${pattern}, newer than ${words}`,
    plan: (root: string) => [{ kind: 'file', root, glob: `${join(root, 'out')}/${pattern}`, max_age: span }],
    trees: (root: string) => {
      const name = String(pattern).replace('*', '2026-12-06');
      return {
        alive: [file(join(root, 'out', name), 'data\n', Number(ms) / 4)],
        stale: [file(join(root, 'out', name), 'data\n', Number(ms) * 3)],
        'no-match': [file(join(root, 'out', `${name}.tmp`), 'data\n', Number(ms) / 4)],
      };
    },
  }));
}

const TEMPLATES: Record<string, () => Template[]> = {
  'fresh-kind': freshKind,
  'named-size': namedSize,
  'line-count': lineCount,
  contains: containsText,
  header,
  conjunction,
  'glob-age': globAge,
};

/** Every case, each tree under its own directory of `base`. */
export function claimCorpus(base: string): ClaimCase[] {
  const cases: ClaimCase[] = [];
  for (const [family, make] of Object.entries(TEMPLATES)) {
    for (const [n, template] of make().entries()) {
      const probe = template.trees('/');
      for (const shape of Object.keys(probe)) {
        const root = join(base, `${family}-${n + 1}-${shape}`);
        cases.push({
          id: `${family}-${n + 1}/${shape}`,
          sentence: template.sentence(root),
          plan: template.plan(root),
          files: template.trees(root)[shape]!,
          shape,
          expected: shape === 'alive' ? 'alive' : 'dead',
        });
      }
    }
  }
  return cases;
}

/** Writes a case's tree, with each file's mtime `ageMs` before `now`; the root exists even when the tree is empty. */
export function writeCaseFiles(item: ClaimCase, now: number): void {
  mkdirSync(String(item.plan[0]!.root), { recursive: true });
  for (const spec of item.files) {
    mkdirSync(dirname(spec.path), { recursive: true });
    writeFileSync(spec.path, spec.content ?? '');
    if (spec.bytes !== undefined) truncateSync(spec.path, spec.bytes);
    const at = (now - spec.ageMs) / 1000;
    utimesSync(spec.path, at, at);
  }
}
