import { readFileSync } from 'node:fs';

/**
 * What the scripted model answers, one turn per model request of the agent's conversation, in
 * order. An error turn is one HTTP answer (a retry by the CLI takes the next turn), so a throttle
 * that clears on the third try is two errors then a reply.
 */
export type Turn =
  | { kind: 'text'; text: string }
  | { kind: 'shell'; command: string }
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string>; resetInSeconds?: number };

export interface Script {
  turns: Turn[];
}

export function readScript(file: string): Script {
  return JSON.parse(readFileSync(file, 'utf8')) as Script;
}

/** What every scenario ends with once the scripted turns are spent: a plain final answer. */
export const DONE: Turn = { kind: 'text', text: 'All done.' };
