import type { Trace, TraceEvent, TraceEventOf, TraceHeader } from './trace.ts';

/**
 * A trace cut into its passes, one agent process each: the first starts with the header, each
 * later one with its `pass` entry. A replay feeds each pass through its own supervised pass, in the
 * same pass loop as `deadman run`. Pure.
 */

export interface TracePass {
  root: number;
  /** The entry that started it; null for the first pass (the header's). */
  started: TraceEventOf<'pass'> | null;
  /** The adapter its output is read with: the one its exit names, else the header's. */
  adapter: TraceHeader['adapter'];
  /** What happened in it (output, observations, workspace answers, kills, evidence, its exit), in order. */
  events: Array<Exclude<TraceEvent, TraceEventOf<'pass' | 'usage_wait'>>>;
  /** The usage wait planned after it ended, when one was recorded. */
  usageWait: TraceEventOf<'usage_wait'> | null;
}

export function tracePasses(trace: Trace): TracePass[] {
  const pass = (root: number, started: TracePass['started']): TracePass => ({
    root,
    started,
    adapter: trace.header.adapter,
    events: [],
    usageWait: null,
  });
  const passes = [pass(trace.header.root, null)];
  for (const event of trace.events) {
    const current = passes.at(-1)!;
    if (event.type === 'pass') passes.push(pass(event.root, event));
    else if (event.type === 'usage_wait') current.usageWait = event;
    else {
      current.events.push(event);
      if (event.type === 'exit' && event.adapter) current.adapter = event.adapter;
    }
  }
  return passes;
}
