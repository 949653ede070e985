import type { HeapPort, LoopClock } from '../ports.ts';

/**
 * A full garbage collection once the heap has grown by FLOOD_GROWTH_BYTES since the last one
 * asked for here (checked after each slice of parsed output), at most once every
 * FLOOD_COLLECTION_SPACING_MS. V8 runs its first full collection of a run when the old
 * generation reaches a limit set at start-up (~26 MB here), which a flood of agent events
 * reaches mid-way: marking then runs while the flood promotes its short-lived objects, the
 * collection keeps that floating garbage (17.9-18.5 MB after it instead of 11.4), and V8 sets
 * its next limit from the inflated size. Collected early (11-16 ms), the heap is measured while
 * it holds little but the run's own state: the 100 MB Claude flood peaked at 95-96 MB against
 * 95-111 without (3 runs each, load 2.5; in 5 interleaved rounds 15.9 MB over generic
 * passthrough against 19.7, medians). Spaced, so that it costs at most ~0.15 % of a core however
 * long the flood: once V8 has measured the heap, its own schedule is right.
 */
export const FLOOD_GROWTH_BYTES = 4 * 1024 * 1024;
export const FLOOD_COLLECTION_SPACING_MS = 10_000;

/** Returns what to call after each slice of parse work; growth counts from the heap as the streams start. */
export function floodCollection(monotonic: () => number, heap: HeapPort | undefined): () => void {
  if (!heap) return () => {};
  let base = heap.usedBytes();
  let last = -Infinity;
  return () => {
    const used = heap.usedBytes();
    const now = monotonic();
    if (used - base < FLOOD_GROWTH_BYTES || now - last < FLOOD_COLLECTION_SPACING_MS) return;
    last = now;
    heap.collect();
    base = heap.usedBytes();
  };
}

export const QUIET_COMPACTION_MS = 3_000;
export const QUIET_GROWTH_BYTES = 1024 * 1024;

/**
 * Once output has been quiet for QUIET_COMPACTION_MS, a last-resort collection: unlike a full
 * one it also shrinks the young generation and gives freed pages back. An idle resident holds
 * what its start-up left (10 side by side: PSS 24.8 MB each without it, 21.4 with; a plain full
 * collection, 23.8; issue 36), a flood's end what the flood left. Only when the heap grew by
 * QUIET_GROWTH_BYTES since the last one, so a chatty agent's pauses do not cost a collection
 * each (~10 ms). Returns what to call at each chunk of output; the first quiet spell counts from
 * the call that makes it.
 */
export function quietCompaction(clock: Pick<LoopClock, 'monotonic' | 'sleep'>, heap: HeapPort | undefined): () => void {
  if (!heap) return () => {};
  let compactedAt: number | null = null;
  let lastOutputAt = clock.monotonic();
  let waiting = false;
  const wait = async (): Promise<void> => {
    for (let quiet = 0; quiet < QUIET_COMPACTION_MS; quiet = clock.monotonic() - lastOutputAt)
      await clock.sleep(QUIET_COMPACTION_MS - quiet);
    waiting = false;
    if (compactedAt !== null && heap.usedBytes() - compactedAt < QUIET_GROWTH_BYTES) return;
    heap.compact();
    compactedAt = heap.usedBytes();
  };
  const output = () => {
    lastOutputAt = clock.monotonic();
    if (waiting) return;
    waiting = true;
    void wait();
  };
  output();
  return output;
}
