import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter, AgentEvent } from '../../lib/core/adapters/agent-events.ts';
import { repoRoot } from './cli.ts';

/** A file under test/fixtures/ (the sources, not dist/). */
export function fixturePath(...parts: string[]): string {
  return join(repoRoot, 'test', 'fixtures', ...parts);
}

export function fixtureLines(...parts: string[]): string[] {
  return readFileSync(fixturePath(...parts), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** Every event an adapter makes of the lines, in order. */
export function eventsOf(adapter: Adapter, lines: readonly string[]): AgentEvent[] {
  return lines.flatMap((line) => adapter.parseLine(line).events);
}

/** The events without tools' output tails, for tests about the events' sequence (tails have their own tests). */
export function withoutOutputTails(events: readonly AgentEvent[]): AgentEvent[] {
  return events.map((event) => {
    if (event.type !== 'tool_finished') return event;
    const { outputTail: _tail, ...rest } = event;
    return rest;
  });
}
