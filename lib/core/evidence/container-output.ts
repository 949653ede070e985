/**
 * Parsers of what the read-only commands (container-commands.ts) print inside a container. GNU
 * coreutils/findutils and busybox print the same facts for the same options; they differ in their
 * error lines (GNU `stat: cannot statx '/p': …` and `find: '/p': …`, busybox `stat: can't stat
 * '/p': …` and `find: /p: …`), which are read only for their cause. The commands run with
 * LC_ALL=C, so the causes are the C library's English words.
 */

/** The clock where the files live: its time, and its zone's offset from UTC for "today" there. */
export interface ContainerClock {
  epochMs: number;
  utcOffsetMinutes: number;
}

/** `date '+%s %z'` → the clock, or null when the line is not that. */
export function parseClock(stdout: string): ContainerClock | null {
  const match = /^(-?\d+) ([+-])(\d\d)(\d\d)$/.exec(stdout.trim());
  if (!match) return null;
  const [, seconds, sign, hours, minutes] = match;
  const offset = Number(hours) * 60 + Number(minutes);
  // Real zones lie within UTC-12 and UTC+14; busybox 1.35 prints +2400 for a POSIX zone it misreads.
  if (offset > 14 * 60) return null;
  return { epochMs: Number(seconds) * 1000, utcOffsetMinutes: sign === '-' ? -offset : offset };
}

/** What `stat -L` said of one path. */
export type StatFacts =
  | { path: string; state: 'missing' }
  | { path: string; state: 'error'; error: string }
  | { path: string; state: 'present'; isFile: boolean; size: number; mtimeMs: number };

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** A path with a line break would split stat's one-line answer: it is never asked, and reported. */
export function isStatable(path: string): boolean {
  return !path.includes('\n');
}

/** The facts of each path from `stat -L -c '%f %s %Y %n' PATH…`, whatever its exit status. */
export function parseStat(paths: readonly string[], stdout: string, stderr: string): StatFacts[] {
  const found = new Map<string, StatFacts>();
  for (const line of stdout.split('\n')) {
    const match = /^([0-9a-f]+) (\d+) (-?\d+) (.+)$/.exec(line);
    if (!match) continue;
    const [, mode, size, mtime, path] = match as unknown as [string, string, string, string, string];
    found.set(path, {
      path,
      state: 'present',
      isFile: (parseInt(mode, 16) & S_IFMT) === S_IFREG,
      size: Number(size),
      mtimeMs: Number(mtime) * 1000,
    });
  }
  const errors = stderr.split('\n').filter((line) => line !== '');
  return paths.map((path): StatFacts => {
    if (!isStatable(path)) return { path, state: 'error', error: 'its name holds a line break' };
    const facts = found.get(path);
    if (facts) return facts;
    const cause = causeFor(path, errors);
    if (cause === null)
      return { path, state: 'error', error: `stat said nothing of it${errors.length > 0 ? ` (${errors[0]})` : ''}` };
    return isAbsence(cause) ? { path, state: 'missing' } : { path, state: 'error', error: cause.toLowerCase() };
  });
}

/** `realpath PATH…` → one resolved path per operand, or null when any is missing (a race, or an error). */
export function parseRealpath(stdout: string, count: number): string[] | null {
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.length === count && lines.every((line) => line.startsWith('/')) ? lines : null;
}

export type FindListing = { paths: string[] } | { error: string } | { tooMany: number };

/**
 * `find -H BASE … -print0` → the entries. A missing base (or one that vanished mid-walk) lists
 * nothing, as the host walk does; any other error (permission denied) fails the listing; more than
 * `maxEntries` entries is refused rather than judged on a part.
 */
export function parseFind(code: number, stdout: string, stderr: string, maxEntries: number): FindListing {
  const problems = stderr.split('\n').filter((line) => line !== '' && !isAbsence(causeOf(line)));
  if (code !== 0 && problems.length > 0)
    return { error: `find: ${causeOf(problems[0]!).toLowerCase()} (${problems[0]})` };
  const paths = stdout.split('\0');
  if (paths[paths.length - 1] === '') paths.pop();
  if (paths.length > maxEntries) return { tooMany: maxEntries };
  return { paths };
}

function isAbsence(cause: string): boolean {
  return cause === 'No such file or directory' || cause === 'Not a directory';
}

/** The cause at the end of an error line (`…: Permission denied`). */
function causeOf(line: string): string {
  const at = line.lastIndexOf(': ');
  return at === -1 ? line : line.slice(at + 2);
}

/** The cause of the error line about `path`, quoted as GNU ('p' or ‘p’) or busybox ('p', or bare) quote it. */
function causeFor(path: string, lines: readonly string[]): string | null {
  const forms = [`'${path}': `, `‘${path}’: `, ` ${path}: `];
  const line = lines.find((l) => forms.some((form) => l.includes(form)));
  return line === undefined ? null : causeOf(line);
}
