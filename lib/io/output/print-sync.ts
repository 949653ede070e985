import { writeSync } from 'node:fs';

/**
 * A probe's answer (`deadman health`: one line, or a small JSON object) written straight to
 * fd 1: process.stdout would build Node's stream stack for it (some 25 of Node's modules, ~10 M
 * instructions, a tenth of what the probe's floor costs; issue 36.1). A reader that went away
 * (EPIPE) ends the process quietly, as exitQuietlyOnEpipe (io/log/log.ts) does for the stream.
 */
export function printSync(text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      // fd 1 left non-blocking by whoever opened it, its pipe full: the reader drains it soon.
      if (code !== 'EAGAIN') throw error;
    }
  }
}
