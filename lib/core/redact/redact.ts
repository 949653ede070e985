/**
 * The one redactor: every string deadman stores, prints, journals or hands to a diagnostician
 * goes through it first. Pure — the child's environment and the configured extra patterns are
 * passed in. A secret is replaced by REDACTED; the text around it (a key's name, the URL's
 * host) stays, so a report still says what was there.
 */

export const REDACTED = '[REDACTED]';

export interface Redactor {
  text(text: string): string;
  /** Strings anywhere inside arrays and plain objects; everything else as it was. */
  value<T>(value: T): T;
}

export interface RedactorInput {
  /** The child's environment: values of variables whose names look secret are hidden wherever they appear. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra regular expressions (`[redact] patterns`); each whole match is hidden. */
  patterns?: readonly string[];
}

/**
 * `…KEY`, `…TOKEN`, `…SECRET`, `…PASSWORD` (and a few spellings): names whose values are
 * secrets. Not `PWD`/`OLDPWD`: those are directories, and hiding them would hide every path.
 */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|(?:^|_)PASS|CREDENTIALS?|AUTH)$/i;
/** Shorter values ("1", "true", "yes") would hide ordinary words everywhere. */
const MIN_ENV_SECRET = 6;

/** A key that names a secret, as a whole word at the end of the name (not `max_tokens`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*?(?:password|passwd|token|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth)`;

/** Each known shape, with what to keep around the secret ($1… groups). */
const SHAPES: ReadonlyArray<{ pattern: RegExp; keep?: [before: string, after: string] }> = [
  // Anthropic before OpenAI: both start with sk-.
  { pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g },
  { pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g },
  { pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, keep: ['$1', ''] },
  // https://user:pass@host — the user and host stay.
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(@)/gi, keep: ['$1', '$2'] },
  // "password": "…" and 'token': '…' (JSON and friends).
  { pattern: new RegExp(String.raw`(["']${SECRET_KEY}["']\s*:\s*["'])(?:[^"'\\]|\\.)+(["'])`, 'gi'), keep: ['$1', '$2'] },
  // password=…, token: …, --api-key=…, AWS_SECRET_ACCESS_KEY=… (not a JSON number such as "max_tokens": 3).
  { pattern: new RegExp(String.raw`\b(${SECRET_KEY}\s*[=:]\s*)(?!["'\s])[^\s"'&,;]+`, 'gi'), keep: ['$1', ''] },
];

/**
 * A word every shape above needs somewhere in the text. Most lines (an agent's events, a
 * build's output) have none, and one test instead of ten replaces keeps the cost per recorded
 * line small.
 */
const HINT = /sk-|gh[pousr]_|github_pat_|xox|AKIA|ASIA|eyJ|bearer|:\/\/|passw|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|auth/i;

export function createRedactor(input: RedactorInput = {}): Redactor {
  const literals = secretEnvValues(input.env ?? {});
  const extra = (input.patterns ?? []).map((source) => new RegExp(source, 'g'));
  const text = (value: string): string => {
    let out = value;
    for (const literal of literals) if (out.includes(literal)) out = out.split(literal).join(REDACTED);
    if (HINT.test(out)) for (const { pattern, keep = ['', ''] } of SHAPES) out = out.replace(pattern, `${keep[0]}${REDACTED}${keep[1]}`);
    for (const pattern of extra) out = out.replace(pattern, REDACTED);
    return out;
  };
  const value = <T>(item: T): T => redactValue(item, text) as T;
  return { text, value };
}

function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_ENV_SECRET)
    .map(([, value]) => value!);
  // Longest first, so a secret that contains another is hidden whole.
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

function redactValue(item: unknown, text: (s: string) => string): unknown {
  if (typeof item === 'string') return text(item);
  if (Array.isArray(item)) return item.map((entry) => redactValue(entry, text));
  if (item !== null && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, redactValue(entry, text)]));
  }
  return item;
}
