/**
 * Splits a byte stream into lines for the detectors without ever holding more than
 * `maxLineBytes` of one line: the rest of an overlong line is dropped and the line is flagged
 * `truncated`. The passthrough to the real stdout is separate and never touched by this.
 */
export interface Line {
  text: string;
  truncated: boolean;
}

// A BOM is text like any other: kept the same wherever a line starts (see splitComplete).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The start of a line that a later chunk completes is copied (the caller may free the chunk)
 * into one buffer, kept and reused from line to line, and decoded from there: a copy per piece
 * and another to join them made garbage of every held byte, and for long lines (100 KB Codex
 * outputs, split 8 KiB at a time) that was most of the stream, outside V8's heap, freed only
 * by collections. A buffer grown past KEPT_BYTES for a longer line is not kept.
 */
const KEPT_BYTES = 256 * 1024;
const NOTHING_HELD = new Uint8Array(0);

export class LineSplitter {
  private buffer = NOTHING_HELD;
  private held = 0;
  private truncated = false;
  private readonly maxLineBytes: number;

  constructor(maxLineBytes: number) {
    this.maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk; returns the lines it completed. */
  push(chunk: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    const first = chunk.indexOf(10);
    if (first === -1) {
      this.hold(chunk);
      return lines;
    }
    if (this.held > 0 || this.truncated) {
      this.hold(chunk.subarray(0, first));
      lines.push(this.take());
      start = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= start) this.splitComplete(chunk.subarray(start, last), lines);
    this.hold(chunk.subarray(last + 1));
    return lines;
  }

  /**
   * Lines wholly inside one chunk, the common case: decoded straight from the chunk, never
   * copied. Short enough in all, the span is decoded once and split as text — a newline byte is
   * never part of a UTF-8 sequence, so this equals decoding each line — which keeps a flood of
   * short lines at native speed instead of a few microseconds a line.
   */
  private splitComplete(span: Uint8Array, lines: Line[]): void {
    if (span.length <= this.maxLineBytes) {
      for (const text of decoder.decode(span).split('\n')) lines.push({ text: withoutCr(text), truncated: false });
      return;
    }
    let start = 0;
    for (;;) {
      const newline = span.indexOf(10, start);
      const end = newline === -1 ? span.length : newline;
      const long = end - start > this.maxLineBytes;
      lines.push({
        text: withoutCr(decoder.decode(span.subarray(start, long ? start + this.maxLineBytes : end))),
        truncated: long,
      });
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** The unterminated last line at end of stream, if any. */
  flush(): Line[] {
    return this.held > 0 || this.truncated ? [this.take()] : [];
  }

  private hold(bytes: Uint8Array): void {
    const room = this.maxLineBytes - this.held;
    if (bytes.length > room) this.truncated = true;
    const kept = bytes.length > room ? bytes.subarray(0, Math.max(0, room)) : bytes;
    if (kept.length === 0) return;
    const needed = this.held + kept.length;
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.min(this.maxLineBytes, Math.max(needed, 2 * this.buffer.length, 4096)));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    // A copy, never a view: the caller may free the chunk as soon as push() returns.
    this.buffer.set(kept, this.held);
    this.held = needed;
  }

  private take(): Line {
    const text = withoutCr(decoder.decode(this.buffer.subarray(0, this.held)));
    const line = { text, truncated: this.truncated };
    this.held = 0;
    this.truncated = false;
    if (this.buffer.length > KEPT_BYTES) this.buffer = NOTHING_HELD;
    return line;
  }
}

/**
 * `text` as a string of its own. A line's text is a slice of its whole chunk's decoded text,
 * and V8 slices keep their parent alive: a kept line (a queued record, a tool's output tail)
 * held its 64 KiB chunk with it, and a flood promoted them by the hundred into the old heap.
 * Concatenating then slicing makes V8 flatten the pair into a new string: the copy.
 */
export function detached(text: string): string {
  return text.length < 16 ? text : ` ${text}`.slice(1);
}

function withoutCr(text: string): string {
  return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
}
