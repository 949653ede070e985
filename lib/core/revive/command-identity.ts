import type { AdapterName } from '../adapters/agent-events.ts';
import { MAX_NAME_LENGTH, NOT_NAME_CHARACTERS } from '../config/name-pattern.ts';
import { readCodexCommand } from '../adapters/codex-command.ts';
import { readClaudeCommand } from '../adapters/claude-command.ts';
import { canonicalJson } from './canonical-json.ts';

/**
 * What makes two command lines the same job, so that `deadman run -- CMD` resumes only the
 * session CMD itself started: the adapter, the program, the working directory, the options
 * (without the resume parts, which a revive adds itself) and the prompt. The prompt belongs
 * to the identity: "task A" and "task B" with the same program are two jobs, and a resume
 * of task A must never stand in for task B.
 */

export interface CommandIdentity {
  adapter: AdapterName;
  program: string[];
  cwd: string;
  options: string[];
  task: string | null;
}

export function commandIdentity(adapter: AdapterName, argv: readonly string[], cwd: string): CommandIdentity {
  const codex = adapter === 'codex' ? readCodexCommand(argv) : null;
  if (codex) return { adapter, program: codex.prefix, cwd, options: codex.resumeFlags, task: codex.task };
  if (adapter === 'claude') {
    const claude = readClaudeCommand(argv);
    return { adapter, program: claude.program, cwd, options: claude.resumeFlags, task: claude.task };
  }
  return { adapter, program: argv.slice(0, 1), cwd, options: argv.slice(1), task: null };
}

/** One string per identity, for hashing into a run name. */
export function identityKey(identity: CommandIdentity): string {
  return canonicalJson(identity);
}

/** Why the current command is not the marker's job (one line), or null when it is. */
export function identityDifference(current: CommandIdentity, marked: CommandIdentity): string | null {
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  if (current.adapter !== marked.adapter)
    return `the command is read as ${current.adapter}, the interrupted one as ${marked.adapter}`;
  if (!same(current.program, marked.program))
    return `the program differs (${current.program.join(' ')} vs ${marked.program.join(' ')})`;
  if (current.cwd !== marked.cwd) return `the working directory differs (${current.cwd} vs ${marked.cwd})`;
  if (!same(current.options, marked.options)) return "the options differ from the interrupted command's";
  if (current.task !== marked.task) return "the prompt differs from the interrupted command's";
  return null;
}

/**
 * The run's name when `--name` is not given: the unit's under systemd (one unit, one job),
 * else the program's basename and a short hash of the identity (`codex-3f2a9c`), so two
 * different tasks started by hand never share a marker.
 */
export function defaultRunName(unit: string | null, argv: readonly string[], identityHash: string): string {
  if (unit)
    return unit
      .replace(/\.service$/, '')
      .replace(NOT_NAME_CHARACTERS, '_')
      .slice(0, MAX_NAME_LENGTH);
  const base = (argv[0] ?? 'run').split('/').pop()!.replace(NOT_NAME_CHARACTERS, '_').slice(0, 80) || 'run';
  return `${base}-${identityHash.slice(0, 6)}`;
}
