import { createLineRedactor, type LineRedactor } from './line-redactor.ts';

/**
 * A child's output as it arrives, in chunks that may cut a line (and a secret) anywhere, turned
 * into redacted text one whole line at a time: a secret printed in two writes is redacted as the
 * one line it makes. A partial line waits for its end, bounded: beyond `maxPending` characters
 * without a newline the line is let go up to its last blank (secrets have none; a key block's
 * lines are short), or whole when it has none, so a 100 MB line costs `maxPending`, not 100 MB.
 */

export const MAX_PENDING = 64 * 1024;

export class RedactedLineStream {
  private pending = '';
  private readonly lines: LineRedactor;

  constructor(text: (s: string) => string, private readonly maxPending = MAX_PENDING) {
    this.lines = createLineRedactor(text);
  }

  /** The redacted text of what this chunk completes; '' while a line is still open. */
  write(chunk: string): string {
    const text = this.pending + chunk;
    const lastNewline = text.lastIndexOf('\n');
    let out = lastNewline < 0 ? '' : text.slice(0, lastNewline).split('\n').map((line) => `${this.lines.line(line)}\n`).join('');
    let rest = text.slice(lastNewline + 1);
    if (rest.length > this.maxPending) {
      const blank = Math.max(rest.lastIndexOf(' '), rest.lastIndexOf('\t'));
      const cut = blank > 0 ? blank + 1 : rest.length;
      out += this.lines.line(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    this.pending = rest;
    return out;
  }

  /** What is left of a last line without a newline, redacted (the stream ended). */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest === '' ? '' : this.lines.line(rest);
  }
}
