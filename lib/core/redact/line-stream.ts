import { createLineRedactor, type LineRedactor } from './line-redactor.ts';
import { REDACTED } from './shapes.ts';

/**
 * A child's output as it arrives, in chunks that may cut a line (and a secret) anywhere, turned
 * into redacted text one whole line at a time: a secret printed in two writes is redacted as the
 * one line it makes. A partial line waits for its end, bounded: beyond `maxPending` characters
 * without a newline the line is let go in a piece, so a 100 MB line costs `maxPending`, not
 * 100 MB. The piece ends at a blank where possible, and only where no secret straddles the cut
 * (safeCut): a cut between `--password` and its value, or inside `Authorization: Basic …`,
 * redacted each half alone and leaked the secret.
 */

export const MAX_PENDING = 64 * 1024;
/** The text after a cut that is redacted with it to prove the cut safe: longer than any secret the shapes know. */
export const CUT_CONTEXT = 4 * 1024;
/** Blanks tried as cuts, from the last, before the piece is hidden around its cut instead. */
const CUT_TRIES = 16;
/** How far back the next cut is tried in a stretch without blanks. */
const CUT_STEP = 256;
/** The first word of a text: what may end a secret that began before it. */
const LEADING_WORD = /^[^\s]+/;

export class RedactedLineStream {
  private pending = '';
  private readonly lines: LineRedactor;
  /** A piece was hidden whole: the text after it may begin with the rest of a secret it cut. */
  private hideLeadingWord = false;

  /** The text after a cut redacted with it: CUT_CONTEXT, or half a smaller bound. */
  private readonly context: number;

  constructor(
    private readonly text: (s: string) => string,
    private readonly maxPending = MAX_PENDING,
  ) {
    this.lines = createLineRedactor(text);
    this.context = Math.min(CUT_CONTEXT, Math.floor(maxPending / 2));
  }

  /** The redacted text of what this chunk completes; '' while a line is still open. */
  write(chunk: string): string {
    const text = this.hideLeadingWord ? this.withoutLeadingWord(chunk) : this.pending + chunk;
    const lastNewline = text.lastIndexOf('\n');
    let out =
      lastNewline < 0
        ? ''
        : text
            .slice(0, lastNewline)
            .split('\n')
            .map((line) => `${this.lines.line(line)}\n`)
            .join('');
    let rest = text.slice(lastNewline + 1);
    if (rest.length > this.maxPending) {
      const { redacted, taken } = this.piece(rest);
      out += redacted;
      rest = rest.slice(taken);
    }
    this.pending = rest;
    return out;
  }

  /**
   * The first piece of an overlong partial line, redacted, and how many characters of it that
   * took. A cut is safe when redacting the two sides alone gives what redacting them together
   * gives, over `context` characters after it. Should no tried cut be safe (a line dense with
   * secrets), the piece and the context after it go as one REDACTED: whatever straddled is hidden.
   */
  private piece(rest: string): { redacted: string; taken: number } {
    const limit = rest.length - this.context;
    let cut = limit;
    for (let tries = 0; tries < CUT_TRIES && cut > 0; tries++) {
      const blank = Math.max(rest.lastIndexOf(' ', cut - 1), rest.lastIndexOf('\t', cut - 1));
      const candidate = blank > 0 ? blank + 1 : cut;
      const head = rest.slice(0, candidate);
      if (cutsNoSecret(this.text, head, rest.slice(candidate, candidate + this.context)))
        return { redacted: this.lines.line(head), taken: candidate };
      cut = blank > 0 ? blank : cut - CUT_STEP;
    }
    this.lines.line(rest); // a key block opened in it stays open
    this.hideLeadingWord = true;
    return { redacted: REDACTED, taken: rest.length };
  }

  /** `chunk` (after a hidden piece, with nothing pending) with its first word hidden, until a blank or newline ends that word. */
  private withoutLeadingWord(chunk: string): string {
    const word = LEADING_WORD.exec(chunk)?.[0] ?? '';
    if (word.length < chunk.length) this.hideLeadingWord = false;
    return word === '' ? chunk : `${REDACTED}${chunk.slice(word.length)}`;
  }

  /** What is left of a last line without a newline, redacted (the stream ended). */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest === '' ? '' : this.lines.line(rest);
  }
}

/** Whether redacting `head` and `context` alone gives what redacting them as one text gives: no secret straddles their cut. */
function cutsNoSecret(text: (s: string) => string, head: string, context: string): boolean {
  return text(head) + text(context) === text(head + context);
}
