import type { Adapter, AdapterName } from './agent-events.ts';
import type { CodexStart } from './codex.ts';
import { createGenericAdapter, type GenericOptions } from './generic.ts';
import { parseEventLine } from './json-line.ts';
import { splitProgram } from './program.ts';

export type AdapterSetting = 'auto' | AdapterName;
/** `codex`: how the Codex thread began (a resume counts on from its earlier total). */
export type AdapterOptions = GenericOptions & { codex?: CodexStart };

/** The `[generic]` section of deadman.toml as adapter options. */
export function adapterOptions(generic: {
  session_pattern?: string | undefined;
  turn_end_pattern?: string | undefined;
}): AdapterOptions {
  return { sessionPattern: generic.session_pattern, turnEndPattern: generic.turn_end_pattern };
}

/**
 * Builds the named adapter. The agent parsers validate with zod, which costs tens of
 * milliseconds to load, so they are imported only when an agent is actually supervised:
 * `deadman run -- make` stays quick to start.
 */
export async function createAdapter(name: AdapterName, options: AdapterOptions = {}): Promise<Adapter> {
  switch (name) {
    case 'codex':
      return (await import('./codex.ts')).createCodexAdapter(options.codex);
    case 'claude':
      return (await import('./claude.ts')).createClaudeAdapter();
    case 'generic':
      return createGenericAdapter(options);
  }
}

/**
 * `adapter = "auto"`: the agent named by argv (through `node`, `npx`, `env` launchers) when it
 * is asked for its machine-readable stream — `codex exec --json`, `claude --output-format
 * stream-json` — else generic. A configured name always wins. `sniffAdapter` can still
 * upgrade a generic guess from the first output line.
 */
export function detectAdapter(argv: readonly string[], configured: AdapterSetting): AdapterName {
  if (configured !== 'auto') return configured;
  const { agent, args } = splitProgram(argv);
  if (agent === 'codex' && args.includes('exec') && (args.includes('--json') || args.includes('--experimental-json')))
    return 'codex';
  if (agent === 'claude' && outputFormat(args) === 'stream-json') return 'claude';
  return 'generic';
}

function outputFormat(args: readonly string[]): string | undefined {
  const index = args.indexOf('--output-format');
  if (index >= 0) return args[index + 1];
  return args.find((a) => a.startsWith('--output-format='))?.slice('--output-format='.length);
}

/** The agent whose opening line this is (Codex's thread.started, Claude's system/init), else null. */
export function sniffAdapter(line: string): AdapterName | null {
  const event = parseEventLine(line);
  if (event === null) return null;
  if (event.type === 'thread.started' && typeof event.thread_id === 'string') return 'codex';
  if (event.type === 'system' && event.subtype === 'init' && typeof event.session_id === 'string') return 'claude';
  return null;
}
