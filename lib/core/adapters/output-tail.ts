import { detached } from './lines.ts';

/** Enough of a tool's output to tell one failure from another. */
export const OUTPUT_TAIL_CHARS = 1000;

/**
 * The last OUTPUT_TAIL_CHARS of a tool's output, as a string of its own. Tails wait for the
 * supervisor's tick in their hundreds, and a plain slice keeps the whole output alive: a flood
 * of megabyte outputs would pin gigabytes, and even 2 KB outputs, kept past young-generation
 * collections with their tails, were promoted by the thousand (a 50 MB Codex flood grew the old
 * generation by ~40 MB between full collections). The copy costs about a microsecond.
 */
export function outputTail(output: string): string {
  return output.length <= OUTPUT_TAIL_CHARS ? output : detached(output.slice(-OUTPUT_TAIL_CHARS));
}
