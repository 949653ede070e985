import { nearest } from '../config/did-you-mean.ts';
import { emptyDraft, type ClaimDraft } from './claim-draft.ts';
import type { Token } from './claim-tokens.ts';
import { TYPE_WORDS, knownWords } from './claim-words.ts';
import { AGE_UNITS, LINE_WORDS, SIZE_UNITS } from './quantity-words.ts';

/**
 * What read-claim.ts's rules read a sentence with: a cursor over its tokens that fills a claim
 * draft, the quantities ("6 hours", "10 MB") several rules share, and the refusals they give.
 */

/** Why a sentence was not read: the word (when one is to blame), the nearest known word, and one line. */
export interface ClaimRefusal {
  word: string | null;
  nearest: string | null;
  reason: string;
}

export function unknownWord(word: string): ClaimRefusal {
  const near = nearest(word.toLowerCase(), knownWords()) ?? null;
  return {
    word,
    nearest: near,
    reason: `does not understand "${word}"${near ? ` (nearest word it knows: "${near}")` : ''}`,
  };
}

export function phrase(word: string, reason: string): ClaimRefusal {
  return { word, nearest: null, reason: `"${word}": ${reason}` };
}

export type Outcome = 'no' | 'ok' | ClaimRefusal;

export type Rule = (c: Cursor) => Outcome;

export class Cursor {
  at = 0;
  readonly draft: ClaimDraft = emptyDraft();
  private readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }
  done(): boolean {
    return this.at >= this.tokens.length;
  }
  peek(ahead = 0): Token | undefined {
    return this.tokens[this.at + ahead];
  }
  /** The lower-cased word `ahead` tokens on, or null when that token is not a word. */
  word(ahead = 0): string | null {
    const token = this.peek(ahead);
    return token?.kind === 'word' ? token.text : null;
  }
  /** Reads the words given, in order, if they come next. */
  take(...words: string[]): boolean {
    if (!words.every((w, i) => this.word(i) === w)) return false;
    this.at += words.length;
    return true;
  }
  skip(words: ReadonlySet<string>): void {
    while (this.word() !== null && words.has(this.word()!)) this.at++;
  }
}

export interface Quantity {
  kind: 'age' | 'size' | 'lines' | 'files';
  amount: number;
  text: string;
}

/** "6 hours", "10 MB", "100 lines", "3 files"; with `implicitOne`, "hour" alone is one hour ("in the last hour"). */
export function quantity(c: Cursor, implicitOne = false): Quantity | null {
  const start = c.at;
  const number = c.peek();
  const value = number?.kind === 'number' ? number.value : implicitOne ? 1 : null;
  if (value === null) return null;
  if (number?.kind === 'number') c.at++;
  // "3 JSON files": a type between a count and its noun.
  const typed = number?.kind === 'number' ? countedType(c) : null;
  const unit = c.word();
  const kind =
    unit === null
      ? null
      : unit in AGE_UNITS
        ? 'age'
        : unit in SIZE_UNITS
          ? 'size'
          : LINE_WORDS.has(unit)
            ? 'lines'
            : unit === 'files' || unit === 'file'
              ? 'files'
              : null;
  if (kind === null) {
    c.at = start;
    return null;
  }
  if (typed !== null && kind !== 'files') {
    c.at = start;
    return null;
  }
  if (typed !== null) c.draft.ending = typed;
  c.at++;
  const scale = kind === 'age' ? AGE_UNITS[unit!]! : kind === 'size' ? SIZE_UNITS[unit!]! : 1;
  return {
    kind,
    amount: Math.round(value * scale),
    text: `${number?.kind === 'number' ? number.text : 'one'} ${unit}`,
  };
}

export function countedType(c: Cursor): string | null {
  const token = c.peek();
  const ending = token?.kind === 'ext' ? token.text : token?.kind === 'word' ? TYPE_WORDS[token.text] : undefined;
  if (ending === undefined || (c.word(1) !== 'files' && c.word(1) !== 'file')) return null;
  c.at++;
  return ending;
}
