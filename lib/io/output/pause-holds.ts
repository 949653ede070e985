import type { Readable } from 'node:stream';

/**
 * A stream that more than one party may need paused: the passthrough while its writes are
 * behind, the line pacer while its parse backlog is long. A plain pause()/resume() pair lets
 * one party resume a stream the other still needs held; here it flows again only once every
 * holder let go.
 */
const holders = new WeakMap<Readable, Set<string>>();

export function holdPaused(source: Readable, holder: string, held: boolean): void {
  let set = holders.get(source);
  if (!set) holders.set(source, (set = new Set()));
  if (held) {
    set.add(holder);
    source.pause();
  } else if (set.delete(holder) && set.size === 0) {
    source.resume();
  }
}
