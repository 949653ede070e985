import type { AdapterName } from './agent-events.ts';
import { readClaudeCommand } from './claude-command.ts';
import { readCodexCommand } from './codex-command.ts';

/** The agent's task (prompt) on its command line, or null when it has none there (stdin, `-`, generic). */
export function taskOf(argv: readonly string[], adapter: AdapterName): string | null {
  if (adapter === 'codex') return readCodexCommand(argv)?.task ?? null;
  if (adapter === 'claude') return readClaudeCommand(argv).task;
  return null;
}

/** The same command with its task replaced (a fresh session's prompt); null when there is no task to replace. */
export function withTask(argv: readonly string[], adapter: AdapterName, task: string): string[] | null {
  const current = taskOf(argv, adapter);
  const at = current === null ? -1 : argv.lastIndexOf(current);
  if (at < 0) return null;
  return [...argv.slice(0, at), task, ...argv.slice(at + 1)];
}
