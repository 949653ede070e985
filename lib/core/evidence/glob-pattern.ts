/**
 * The glob syntax of file claims, compiled for a directory walk: `*` (any run of characters
 * within one name), `?` (one character) and `**` (zero or more directories). Everything else is
 * literal. As in a shell, wildcards do not match a leading dot, so the hidden temp files many
 * exporters write before renaming never count as evidence.
 */

export type GlobSegment =
  { kind: 'literal'; name: string } | { kind: 'wildcard'; matches: (name: string) => boolean } | { kind: 'globstar' };

export interface CompiledGlob {
  /** The directory the walk starts from: the segments before the first wildcard. */
  base: string;
  /** The remaining segments, matched one directory level each (`globstar` any number). */
  segments: GlobSegment[];
}

export function compileGlob(pattern: string): CompiledGlob {
  const names = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const firstWild = names.findIndex(hasWildcard);
  const literalCount = firstWild === -1 ? names.length : firstWild;
  return {
    base: `/${names.slice(0, literalCount).join('/')}`,
    segments: names.slice(literalCount).map(compileSegment),
  };
}

function hasWildcard(name: string): boolean {
  return name.includes('*') || name.includes('?');
}

function compileSegment(name: string): GlobSegment {
  if (name === '**') return { kind: 'globstar' };
  if (!hasWildcard(name)) return { kind: 'literal', name };
  const source = [...name].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escapeRegex(c))).join('');
  const regex = new RegExp(`^${source}$`, 's');
  const dotExplicit = name.startsWith('.');
  return {
    kind: 'wildcard',
    matches: (candidate) => (dotExplicit || !candidate.startsWith('.')) && regex.test(candidate),
  };
}

function escapeRegex(char: string): string {
  return /[\\^$.|+()[\]{}]/.test(char) ? `\\${char}` : char;
}

/**
 * Whether an absolute path matches a compiled glob, by the same rules as the directory walk
 * (lib/io/evidence/glob.ts): for a listing made elsewhere, such as `find` inside a container.
 */
export function matchesGlob(glob: CompiledGlob, path: string): boolean {
  const base = glob.base.split('/').filter((s) => s !== '');
  const names = path.split('/').filter((s) => s !== '' && s !== '.');
  if (names.length < base.length || !base.every((name, i) => names[i] === name)) return false;
  return matchNames(glob.segments, names.slice(base.length));
}

/** How many directory levels below the base a match can lie; null when `**` makes it unbounded. */
export function globDepth(glob: CompiledGlob): number | null {
  return glob.segments.some((s) => s.kind === 'globstar') ? null : glob.segments.length;
}

function matchNames(segments: readonly GlobSegment[], names: readonly string[]): boolean {
  const [segment, ...rest] = segments;
  if (segment === undefined) return names.length === 0;
  const [name, ...below] = names;
  if (segment.kind === 'globstar') {
    // Zero directories, or one more that is not hidden (the walk never enters a dot directory).
    return matchNames(rest, names) || (name !== undefined && !name.startsWith('.') && matchNames(segments, below));
  }
  if (name === undefined) return false;
  const matches = segment.kind === 'literal' ? segment.name === name : segment.matches(name);
  return matches && matchNames(rest, below);
}
