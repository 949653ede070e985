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

export class LineSplitter {
  private parts: Uint8Array[] = [];
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
      lines.push({ text: withoutCr(decoder.decode(span.subarray(start, long ? start + this.maxLineBytes : end))), truncated: long });
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
    if (kept.length > 0) {
      // A copy, never a view: the caller may free the chunk as soon as push() returns.
      this.parts.push(new Uint8Array(kept));
      this.held += kept.length;
    }
  }

  private take(): Line {
    const text = withoutCr(decoder.decode(concat(this.parts, this.held)));
    const line = { text, truncated: this.truncated };
    this.parts = [];
    this.held = 0;
    this.truncated = false;
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

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
