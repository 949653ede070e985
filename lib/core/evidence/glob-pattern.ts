/**
 * The glob syntax of file claims, compiled for a directory walk: `*` (any run of characters
 * within one name), `?` (one character) and `**` (zero or more directories). Everything else is
 * literal. As in a shell, wildcards do not match a leading dot, so the hidden temp files many
 * exporters write before renaming never count as evidence.
 */

export type GlobSegment =
  | { kind: 'literal'; name: string }
  | { kind: 'wildcard'; matches: (name: string) => boolean }
  | { kind: 'globstar' };

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
  return { kind: 'wildcard', matches: (candidate) => (dotExplicit || !candidate.startsWith('.')) && regex.test(candidate) };
}

function escapeRegex(char: string): string {
  return /[\\^$.|+()[\]{}]/.test(char) ? `\\${char}` : char;
}
