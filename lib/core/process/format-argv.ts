/** Words shown bare: nothing a shell or a reader could take for something else. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

export interface ArgvFormat {
  /**
   * `shell` single-quotes, so the line can be pasted into a shell (a command to approve);
   * `json` keeps control characters visible and the line on one line (reports, lists).
   */
  quoting: 'shell' | 'json';
  /** Arguments longer than this are cut, with "…", before quoting. */
  maxArgLength?: number;
}

/** An argv on one line as a person reads it: plain words bare, every other argument quoted. */
export function formatArgv(argv: readonly string[], format: ArgvFormat): string {
  const max = format.maxArgLength ?? Infinity;
  return argv
    .map((whole) => {
      const arg = whole.length > max ? `${whole.slice(0, max)}…` : whole;
      if (PLAIN_WORD.test(arg)) return arg;
      return format.quoting === 'json' ? JSON.stringify(arg) : `'${arg.replaceAll("'", `'\\''`)}'`;
    })
    .join(' ');
}
