/**
 * Where the agent sits in a command line. Agents are often started through a launcher
 * (`node …/codex.js`, `npx @openai/codex`, `env K=V claude`), and a resumed run must keep
 * that launcher verbatim, so argv is split into the program part and the agent's own
 * arguments. Pure string work: basenames are taken by hand, not with node:path.
 */

export type AgentKind = 'codex' | 'claude';

export interface ProgramSplit {
  /** Launcher and agent program, e.g. `['node', '/x/codex.js']`; the whole argv when no agent is found. */
  program: string[];
  agent: AgentKind | null;
  /** The agent's own arguments, e.g. `['exec', '--json', '…']`. */
  args: string[];
}

const SCRIPT_RUNNERS = new Set(['node', 'nodejs', 'bun']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
/** Launcher options whose value is the next argument. */
const VALUE_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '-p',
  '--package',
  '-u',
  '--unset',
  '-C',
  '--chdir',
  '-c',
  '--call',
]);

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Which agent a program token names: a binary, a script, or an npm package (with @version). */
export function agentOf(token: string): AgentKind | null {
  const base = basename(token).replace(/\.(js|mjs|cjs|exe|cmd)$/, '');
  const pkg = token.replace(/(.)@[^/@]*$/, '$1');
  if (base === 'codex' || pkg === '@openai/codex' || token.includes('/@openai/codex/')) return 'codex';
  if (base === 'claude' || pkg === '@anthropic-ai/claude-code' || token.includes('/@anthropic-ai/claude-code/'))
    return 'claude';
  return null;
}

export function splitProgram(argv: readonly string[]): ProgramSplit {
  let i = 0;
  for (;;) {
    const token = argv[i];
    if (token === undefined) return { program: [...argv], agent: null, args: [] };
    const base = basename(token);
    if (base === 'env' || SCRIPT_RUNNERS.has(base) || PACKAGE_RUNNERS.has(base)) {
      i = skipLauncherOptions(argv, i + 1, base === 'env');
      continue;
    }
    const agent = agentOf(token);
    if (agent !== null) return { program: argv.slice(0, i + 1), agent, args: argv.slice(i + 1) };
    // A wrapper script that takes the agent's name as its first argument (`node fake-agent.js codex …`).
    const next = argv[i + 1];
    const wrapped = next === undefined ? null : agentOf(next);
    if (wrapped !== null && !next!.startsWith('-'))
      return { program: argv.slice(0, i + 2), agent: wrapped, args: argv.slice(i + 2) };
    return { program: [...argv], agent: null, args: [] };
  }
}

/** Index of the first launcher argument that is neither an option, an option's value, nor (for env) NAME=VALUE. */
function skipLauncherOptions(argv: readonly string[], from: number, isEnv: boolean): number {
  let i = from;
  while (i < argv.length) {
    const token = argv[i]!;
    if (VALUE_OPTIONS.has(token)) i += 2;
    else if (token.startsWith('-') || (isEnv && /^[A-Za-z_][A-Za-z0-9_]*=/.test(token))) i += 1;
    else break;
  }
  return i;
}
