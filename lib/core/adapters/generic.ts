import type { Adapter, AgentEvent } from './agent-events.ts';

export interface GenericOptions {
  /** Regex whose first capture group (or whole match) is the session id. */
  sessionPattern?: string | undefined;
  /** Regex that marks the end of a turn (a unit of work completed). */
  turnEndPattern?: string | undefined;
}

/**
 * Any command: every line is activity. The optional patterns (config `[generic]`) let a
 * home-made agent report a session id to revive and the end of its turns.
 */
export function createGenericAdapter(options: GenericOptions = {}): Adapter {
  const sessionPattern = options.sessionPattern ? new RegExp(options.sessionPattern) : null;
  const turnEndPattern = options.turnEndPattern ? new RegExp(options.turnEndPattern) : null;
  let sessionId: string | null = null;
  return {
    name: 'generic',
    parseLine(line) {
      const events: AgentEvent[] = [];
      const match = sessionPattern?.exec(line);
      const found = match ? (match[1] ?? match[0]) : '';
      if (found && found !== sessionId) {
        sessionId = found;
        events.push({ type: 'session', sessionId: found });
      }
      if (turnEndPattern?.test(line)) events.push({ type: 'turn_completed' });
      return { recognized: true, events };
    },
  };
}
