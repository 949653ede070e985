import { hideBase64Lines, HINT, REDACTED, SHAPES } from './shapes.ts';
import { isSecretName } from './secret-names.ts';
import { redactArgv } from './argv.ts';

export { REDACTED } from './shapes.ts';
export { createLineRedactor, type LineRedactor } from './line-redactor.ts';

/**
 * The one redactor: every string deadman stores, prints, journals, records in a trace, sends
 * as an alert or hands to a diagnostician goes through it first. Pure — the child's
 * environment and the configured extra patterns are passed in. A secret is replaced by
 * REDACTED; the text around it (a key's name, the URL's host) stays, so a report still says
 * what was there. The shapes it knows are in shapes.ts; a stream of lines (where a PEM block
 * spans lines) goes through createLineRedactor, an argument vector through `value`.
 */

export interface Redactor {
  text(text: string): string;
  /** Strings anywhere inside arrays and plain objects (an array of strings as an argv); everything else as it was. */
  value<T>(value: T): T;
}

export interface RedactorInput {
  /** The child's environment: values of variables whose names look secret are hidden wherever they appear. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra regular expressions (`[redact] patterns`); each whole match is hidden. */
  patterns?: readonly string[];
}

/** Shorter values ("1", "true", "yes") would hide ordinary words everywhere. */
const MIN_ENV_SECRET = 6;

export function createRedactor(input: RedactorInput = {}): Redactor {
  const literals = secretEnvValues(input.env ?? {});
  const extra = (input.patterns ?? []).map((source) => new RegExp(source, 'g'));
  const text = (value: string): string => {
    let out = value;
    for (const literal of literals) if (out.includes(literal)) out = out.split(literal).join(REDACTED);
    if (HINT.test(out)) {
      for (const { pattern, replace, hint } of SHAPES)
        if (!hint || hint.test(out)) out = out.replace(pattern, replace as string);
    }
    out = hideBase64Lines(out);
    for (const pattern of extra) out = out.replace(pattern, REDACTED);
    return out;
  };
  const value = <T>(item: T): T => redactValue(item, text) as T;
  return { text, value };
}

/** Values of `ACME_SIGNING_SECRET_V2`, `GITHUB_TOKEN`, `DB_PASSWORD` … — not `PWD`/`OLDPWD`, which are directories. */
function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => isSecretName(name) && value !== undefined && value.length >= MIN_ENV_SECRET)
    .map(([, value]) => value!);
  // Longest first, so a secret that contains another is hidden whole.
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

function redactValue(item: unknown, text: (s: string) => string): unknown {
  if (typeof item === 'string') return text(item);
  if (Array.isArray(item)) {
    return item.every((entry) => typeof entry === 'string')
      ? redactArgv(item, text)
      : item.map((entry) => redactValue(entry, text));
  }
  if (item !== null && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, redactValue(entry, text)]));
  }
  return item;
}
