import { closest } from './did-you-mean.ts';

/**
 * Turns schema issues into one line per problem, each naming the source, the key path, the
 * bad value and the fix. Pure: the caller passes the issues, the raw input and a function that
 * lists the keys the schema knows at a path (for "did you mean").
 */

export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  /** Set by a field whose value may be a secret (schema-fields.ts `redactPattern`): the line gives its length, not its text. */
  params?: { hideValue?: boolean };
}

export interface ProblemSource {
  /** Label for values from the file, e.g. "/etc/deadman/x.toml". */
  file: string;
  /** Top-level keys that came from command-line flags (labelled `--flag-name`). */
  flagKeys: ReadonlySet<string>;
}

export function formatProblems(
  issues: SchemaIssue[],
  raw: unknown,
  source: ProblemSource,
  knownKeysAt: (path: PropertyKey[]) => string[],
): string[] {
  return issues
    .map((issue) => {
      const where = labelFor(issue.path, source);
      if (issue.code === 'unrecognized_keys' && issue.keys) {
        const known = knownKeysAt(issue.path);
        const section = issue.path.length ? ` in [${dotted(issue.path)}]` : '';
        return issue.keys
          .map((key) => {
            const hint = closest(key, known);
            const fix = hint ? `did you mean "${hint}"?` : `remove it (known keys: ${known.join(', ')})`;
            return `${source.file}: unknown key "${key}"${section}; ${fix}`;
          })
          .join('\n');
      }
      const value = valueAt(raw, issue.path);
      const shown =
        value === undefined
          ? `${dotted(issue.path)} is missing`
          : issue.params?.hideValue
            ? `${dotted(issue.path)} (${String(value).length} characters, not shown: it may be a secret)`
            : `${dotted(issue.path)} = ${render(value)}`;
      return `${where}: ${shown}: ${issue.message}`;
    })
    .flatMap((line) => line.split('\n'));
}

function labelFor(path: PropertyKey[], source: ProblemSource): string {
  const top = path[0];
  if (typeof top === 'string' && source.flagKeys.has(top)) return `command line --${top.replaceAll('_', '-')}`;
  return source.file;
}

export function dotted(path: PropertyKey[]): string {
  return (
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(top level)'
  );
}

function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let cursor = raw;
  for (const key of path) {
    if (cursor === null || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Record<PropertyKey, unknown>)[key];
  }
  return cursor;
}

const SHOWN_CHARS = 80;
const SHOWN_DEPTH = 8;

/** A short preview of a bad value; bounded in depth and length, so a list nested 5,000 deep is safe. */
function render(value: unknown): string {
  const text = preview(value, SHOWN_DEPTH);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 3)}...` : text;
}

function preview(value: unknown, depth: number): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > SHOWN_CHARS ? value.slice(0, SHOWN_CHARS) : value);
  if (value === null || typeof value !== 'object') return String(value);
  if (depth === 0) return Array.isArray(value) ? '[...]' : '{...}';
  const entries = Array.isArray(value)
    ? value.slice(0, 10).map((v) => preview(v, depth - 1))
    : Object.entries(value)
        .slice(0, 10)
        .map(([k, v]) => `${JSON.stringify(k)}:${preview(v, depth - 1)}`);
  return Array.isArray(value) ? `[${entries.join(',')}]` : `{${entries.join(',')}}`;
}

/** At most this many problems are listed: the rest is one line, so 10,000 bad keys cannot flood the journal. */
export const MAX_PROBLEMS = 20;

export function limitProblems(lines: string[]): string[] {
  if (lines.length <= MAX_PROBLEMS) return lines;
  return [...lines.slice(0, MAX_PROBLEMS), `and ${lines.length - MAX_PROBLEMS} more problems (fix these first)`];
}

const EXPECTED: Record<string, string> = {
  boolean: 'must be true or false (no quotes)',
  number: 'must be a number (no quotes)',
  int: 'must be a whole number (no quotes)',
  string: 'must be a quoted string',
  array: 'must be a list, e.g. ["a", "b"]',
  object: 'must be a table, e.g. [section]',
};

/** Schema messages phrased as fixes; anything not listed keeps the schema's own message. */
export function phraseIssue(issue: { code: string; expected?: string }): string | undefined {
  if (issue.code === 'invalid_type' && issue.expected) return EXPECTED[issue.expected];
  return undefined;
}
