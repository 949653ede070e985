/**
 * The command line that runs an interactive agent in a new pseudo-terminal through `script`,
 * with no native addon. Pure: the `script` found on the host, the platform and the person's
 * SHELL are passed in, so both forms are tested on any host.
 *
 * - util-linux (Linux): `script -q -e -c CMD /dev/null`. `-e` passes the agent's exit code
 *   through (128+N for a signal). `-c` runs CMD through $SHELL -c, so SHELL is set to /bin/sh
 *   for `script` (the quoting below is POSIX sh) and the person's own SHELL is put back for the
 *   agent (its tools use it); `exec` makes the agent `script`'s child.
 * - BSD (macOS): `script -q /dev/null AGENT ARGS…`. It has no -e or -c: the command is the
 *   trailing argv, run directly (no shell), and `script` exits with the agent's status.
 *
 * Either way `script` puts the caller's terminal in raw mode, copies its window size to the new
 * terminal, passes size changes on (SIGWINCH), and writes its typescript to /dev/null.
 */

export interface PtyArgv {
  argv: string[];
  /** Variables to set in `script`'s environment, over the caller's. */
  env: Record<string, string>;
}

/** null on a platform without a known `script`. */
export function ptyArgv(
  agentArgv: readonly string[],
  host: { script: string; platform: string; shell: string | undefined },
): PtyArgv | null {
  if (host.platform === 'darwin') return { argv: [host.script, '-q', '/dev/null', ...agentArgv], env: {} };
  if (host.platform !== 'linux') return null;
  const restoreShell = host.shell ? `SHELL=${shellQuote(host.shell)} ` : 'unset SHELL; ';
  return {
    argv: [host.script, '-q', '-e', '-c', `${restoreShell}exec ${agentArgv.map(shellQuote).join(' ')}`, '/dev/null'],
    env: { SHELL: '/bin/sh' },
  };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
