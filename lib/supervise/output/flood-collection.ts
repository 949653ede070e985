import type { HeapPort } from '../ports.ts';

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
