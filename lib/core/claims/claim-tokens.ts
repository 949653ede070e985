import { AGE_UNITS, LINE_WORDS, NUMBER_WORDS, SIZE_UNITS } from './quantity-words.ts';

/**
 * A claim sentence cut into tokens: words (lower-cased), numbers (a unit glued to one, "6h",
 * becomes a number and a word), quoted text, absolute paths, file names or globs, `.ext`
 * endings and commas. A character the reader has no token for is refused with its word.
 */

export type Token =
  | { kind: 'word'; text: string }
  | { kind: 'number'; value: number; text: string }
  | { kind: 'quoted'; text: string }
  | { kind: 'path'; text: string }
  | { kind: 'name'; text: string }
  | { kind: 'ext'; text: string }
  | { kind: 'comma'; text: string };

export type Tokens = { ok: true; tokens: Token[] } | { ok: false; word: string };

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Token[]]> = [
  // Single quotes too, so text that holds double quotes can be quoted: contains '"status": "ok"'.
  [/^"([^"]*)"|^\u201c([^\u201d]*)\u201d|^'([^']*)'/, (m) => [{ kind: 'quoted', text: m[1] ?? m[2] ?? m[3]! }]],
  [/^\/[^\s,;"]*/, (m) => [{ kind: 'path', text: trimSentenceEnd(m[0]) }]],
  [
    /^(\d+(?:\.\d+)?)([A-Za-z]+)?(?=[\s,;]|\.?$|\.\s)/,
    (m) => [
      { kind: 'number', value: Number(m[1]), text: m[1]! },
      ...(m[2] ? [{ kind: 'word' as const, text: m[2].toLowerCase() }] : []),
    ],
  ],
  [
    /^\.([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)(?=[\s,;]|\.?$|\.\s)/,
    (m) => [{ kind: 'ext', text: `.${m[1]!.toLowerCase()}` }],
  ],
  [
    /^[A-Za-z0-9_*?][A-Za-z0-9_*?-]*(?:\.[A-Za-z0-9_*?-]+)+|^[A-Za-z0-9_-]*[*?][A-Za-z0-9_*?-]*/,
    (m) => [{ kind: 'name', text: trimSentenceEnd(m[0]) }],
  ],
  [
    /^[A-Za-z][A-Za-z-]*(?:['\u2019]s)?/,
    (m) => [{ kind: 'word', text: m[0].toLowerCase().replace(/['\u2019]s$/, '') }],
  ],
  [/^[,;:]/, (m) => [{ kind: 'comma', text: m[0] }]],
];

export function tokenize(sentence: string): Tokens {
  const tokens: Token[] = [];
  let rest = sentence.trim();
  while (rest !== '') {
    const space = /^\s+|^\.(?=\s|$)/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const found = PATTERNS.map(([pattern, make]) => [pattern.exec(rest), make] as const).find(([m]) => m !== null);
    if (found === undefined) return { ok: false, word: /^\S+/.exec(rest)![0] };
    const [match, make] = found;
    tokens.push(...make(match!));
    rest = rest.slice(match![0].length);
  }
  return { ok: true, tokens: withWordNumbers(tokens) };
}

/** "/out/export." at the end of a sentence: the period is the sentence's. */
function trimSentenceEnd(text: string): string {
  return text.replace(/\.+$/, '');
}

/** "two hours", "three files": a number word before a unit is a number. */
function withWordNumbers(tokens: Token[]): Token[] {
  return tokens.map((token, i) => {
    const next = tokens[i + 1];
    const isUnit =
      next?.kind === 'word' &&
      (next.text in AGE_UNITS || next.text in SIZE_UNITS || LINE_WORDS.has(next.text) || next.text === 'files');
    if (token.kind === 'word' && token.text in NUMBER_WORDS && isUnit)
      return { kind: 'number', value: NUMBER_WORDS[token.text]!, text: token.text };
    return token;
  });
}
