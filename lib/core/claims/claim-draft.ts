import { fileClaimSchema, type FileClaim } from '../config/config.ts';

/**
 * What the reader gathered from a sentence, and the one file claim it becomes: the place (a
 * directory, a file, a glob) settles `root` and `path` or `glob`; every other part is a key of
 * the typed claim. The result goes through the same zod schema as a hand-written claim, so a
 * sentence can claim nothing a TOML author could not write.
 */

export interface ClaimDraft {
  /** A path written as the claim's subject or after "at". */
  subject: string | null;
  /** A directory after "under", "in", "inside". */
  dir: string | null;
  /** A file name or pattern ("named report-*.txt", "backup.tar.gz"). */
  name: string | null;
  /** A file name ending from a type word or `.ext` (".csv"). */
  ending: string | null;
  nonEmpty: boolean;
  minBytes?: number;
  minLines?: number;
  maxAgeMs?: number;
  today: boolean;
  contains?: string;
  header?: string;
  minCount?: number;
  absent: boolean;
}

export function emptyDraft(): ClaimDraft {
  return { subject: null, dir: null, name: null, ending: null, nonEmpty: false, today: false, absent: false };
}

/** The claim, and the same as a TOML author would write it (`input`: what the schema read it from). */
export type Built = { ok: true; claim: FileClaim; input: Record<string, unknown> } | { ok: false; reason: string };

export function buildClaim(draft: ClaimDraft): Built {
  const place = placeOf(draft);
  if ('reason' in place) return { ok: false, reason: place.reason };
  const raw = {
    kind: 'file',
    name: 'claim',
    ...place,
    ...(draft.nonEmpty ? { non_empty: true } : {}),
    min_bytes: draft.minBytes,
    min_lines: draft.minLines,
    max_age: draft.maxAgeMs === undefined ? undefined : draft.maxAgeMs / 1000,
    modified_today: draft.today ? true : undefined,
    contains: draft.contains === undefined ? undefined : escapeRegex(draft.contains),
    header: draft.header,
    min_count: draft.minCount,
    max_count: draft.absent ? 0 : undefined,
  };
  const input = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  const parsed = fileClaimSchema.safeParse(input);
  if (parsed.success) return { ok: true, claim: parsed.data, input };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `${issue.path.join('.') || 'the claim'} ${issue.message}` };
}

type Place = { root: string; path: string } | { root: string; glob: string } | { reason: string };

function placeOf(d: ClaimDraft): Place {
  if (d.subject !== null && d.dir !== null) return { reason: `names two places (${d.subject} and ${d.dir}); say one` };
  const written = d.subject ?? d.dir;
  if (written === null)
    return { reason: 'says nowhere where the file is; add "under /path" (a directory) or "at /path/file"' };
  if (hasWildcard(written)) return { root: literalDirectory(written), glob: written };
  const asDirectory =
    d.dir !== null ||
    written.endsWith('/') ||
    d.name !== null ||
    d.ending !== null ||
    d.minCount !== undefined ||
    d.absent;
  const place = written.length > 1 ? written.replace(/\/+$/, '') : written;
  if (!asDirectory) return { root: parentOf(place), path: place };
  if (d.name !== null && d.ending !== null && !d.name.endsWith(d.ending))
    return { reason: `names the file ${d.name} but a type ending in ${d.ending}; say one` };
  const inside = (name: string) => (place === '/' ? `/${name}` : `${place}/${name}`);
  if (d.name !== null && !hasWildcard(d.name) && d.minCount === undefined && !d.absent)
    return { root: place, path: inside(d.name) };
  return { root: place, glob: inside(d.name ?? `*${d.ending ?? ''}`) };
}

function hasWildcard(text: string): boolean {
  return text.includes('*') || text.includes('?');
}

/** The directories of a glob before its first wildcard: the root it may not leave. */
function literalDirectory(glob: string): string {
  const names = glob.split('/').filter(Boolean);
  const firstWild = names.findIndex(hasWildcard);
  return `/${names.slice(0, firstWild).join('/')}`;
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
