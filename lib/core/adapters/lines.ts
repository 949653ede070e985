/**
 * Splits a byte stream into lines for the detectors without ever holding more than
 * `maxLineBytes` of one line: the rest of an overlong line is dropped and the line is flagged
 * `truncated`. The passthrough to the real stdout is separate and never touched by this.
 */
export interface Line {
  text: string;
  truncated: boolean;
}

const decoder = new TextDecoder();

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
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.hold(chunk.subarray(start, end));
      if (newline === -1) break;
      lines.push(this.take());
      start = newline + 1;
    }
    return lines;
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
    const text = decoder.decode(concat(this.parts, this.held)).replace(/\r$/, '');
    const line = { text, truncated: this.truncated };
    this.parts = [];
    this.held = 0;
    this.truncated = false;
    return line;
  }
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
