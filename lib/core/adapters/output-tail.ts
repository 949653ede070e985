import { detached } from './lines.ts';

/** Enough of a tool's output to tell one failure from another. */
export const OUTPUT_TAIL_CHARS = 1000;

/**
 * The last OUTPUT_TAIL_CHARS of a tool's output. Tails wait for the supervisor's tick in their
 * hundreds, and a plain slice keeps the whole output alive: a flood of megabyte outputs would
 * pin gigabytes. Only an output much longer than its tail is copied (the copy costs
 * about a microsecond; a short parent costs little to keep).
 */
export function outputTail(output: string): string {
  if (output.length <= 4 * OUTPUT_TAIL_CHARS) return output.slice(-OUTPUT_TAIL_CHARS);
  return detached(output.slice(-OUTPUT_TAIL_CHARS));
}
