/**
 * Path scope for evidence claims: a claim may only look inside its declared `root`. The io side
 * resolves symlinks (realpath) and hands both forms here; this module judges them. Comparison is
 * by whole path segments, so `/out/export-secrets` is not inside `/out/export`. It lives with the
 * config: the schema judges a claim's paths as written (config.ts) before evidence ever reads one.
 */

export type ScopeVerdict = { inside: true } | { inside: false; reason: string };

const INSIDE: ScopeVerdict = { inside: true };

/** The last segment of an absolute or relative path (`/out/a.csv` → `a.csv`). */
export function baseName(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return segments[segments.length - 1] ?? '/';
}

/**
 * Judges a path (or a glob, whose wildcard segments count as names) as written in the config:
 * absolute, free of `..`, and segment-wise inside `root`.
 */
export function checkLexicalScope(root: string, path: string): ScopeVerdict {
  for (const [label, value] of [
    ['root', root],
    ['path', path],
  ] as const) {
    if (!value.startsWith('/')) return refuse(`${label} ${value} is relative; write an absolute path`);
    if (segments(value).includes('..')) return refuse(`${label} ${value} contains ".."; write the path without it`);
  }
  if (!isWithin(root, path)) return refuse(`${path} is outside root ${root}`);
  return INSIDE;
}

/**
 * Judges a path after the io side resolved symlinks: the lexical form must pass
 * `checkLexicalScope`, and the resolved path must lie inside the resolved root (the root itself
 * may be a symlink, so both ends are resolved).
 */
export function checkPathScope(facts: {
  root: string;
  path: string;
  resolvedRoot: string;
  resolvedPath: string;
}): ScopeVerdict {
  const lexical = checkLexicalScope(facts.root, facts.path);
  if (!lexical.inside) return lexical;
  for (const resolved of [facts.resolvedRoot, facts.resolvedPath]) {
    if (!resolved.startsWith('/') || segments(resolved).includes('..'))
      return refuse(`${resolved} is not a resolved absolute path`);
  }
  if (!isWithin(facts.resolvedRoot, facts.resolvedPath)) {
    return refuse(`${baseName(facts.path)} resolves to ${facts.resolvedPath}, outside root ${facts.root}`);
  }
  return INSIDE;
}

/** True when `path` is `root` or below it, compared segment by segment (`.` and `//` ignored). */
function isWithin(root: string, path: string): boolean {
  const rootSegments = segments(root);
  const pathSegments = segments(path);
  if (pathSegments.length < rootSegments.length) return false;
  return rootSegments.every((segment, i) => pathSegments[i] === segment);
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

function refuse(reason: string): ScopeVerdict {
  return { inside: false, reason };
}
