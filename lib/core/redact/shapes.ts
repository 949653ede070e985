import { isSecretName, PASSWORD_SHORT_FLAGS, SECRET_WORD } from './secret-names.ts';

/**
 * The shapes of secrets in text, each a pattern and what to put in its place. What is around
 * a secret stays (a key's name, a URL's host, an Authorization header's scheme), so a report
 * still says what was there. Pure and stateless: a PEM block is hidden whole when the text
 * holds it whole; line-redactor.ts carries a block across separate lines.
 */

export const REDACTED = '[REDACTED]';

type Replace = string | ((match: string, ...groups: string[]) => string);
export interface Shape {
  pattern: RegExp;
  replace: Replace;
  /** A cheap test the text must pass before `pattern` is tried (most lines pass none). */
  hint?: RegExp;
}

/** Tokens that carry their issuer in a prefix: hidden whole wherever they appear. */
const PREFIXED_TOKENS = [
  // Anthropic before OpenAI: both start with sk-.
  String.raw`sk-ant-[A-Za-z0-9_-]{8,}`,
  String.raw`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}`,
  String.raw`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`,
  String.raw`glpat-[A-Za-z0-9_-]{20,}`,
  String.raw`xox[abposre]-[A-Za-z0-9-]{10,}`,
  String.raw`xapp-[0-9]-[A-Za-z0-9-]{10,}`,
  String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}\b`,
  String.raw`AIza[0-9A-Za-z_-]{35}`,
  String.raw`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}`,
  String.raw`npm_[A-Za-z0-9]{36}`,
  String.raw`pypi-[A-Za-z0-9_-]{32,}`,
  String.raw`hf_[A-Za-z0-9]{30,}`,
  String.raw`dop_v1_[a-f0-9]{64}`,
  String.raw`shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`,
  String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
  String.raw`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
];

/** Chat and ping services whose URL is the credential: the host and the path's start stay. */
const WEBHOOK_PATHS = [
  String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/`,
  String.raw`(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/`,
  String.raw`[\w.-]*\.webhook\.office\.com/webhookb2/`,
  String.raw`outlook\.office(?:365)?\.com/webhook/`,
  String.raw`api\.telegram\.org/bot`,
  String.raw`hooks\.zapier\.com/hooks/catch/`,
  String.raw`maker\.ifttt\.com/(?:trigger/[^/\s]+/with/key|use)/`,
  String.raw`hc-ping\.com/`,
  // Mattermost, Rocket.Chat, Gitea and other self-hosted hooks: a long token after /hooks/.
  String.raw`[\w.-]+(?::\d+)?/hooks/(?=[A-Za-z0-9]{20,})`,
];

/** The value of a quoted or unquoted assignment, stopping where a list or a query string goes on. */
const VALUE = String.raw`(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|(?!["'\s])[^\s"'&,;]+)`;

function quotedOr(value: string, replacement: string): string {
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  return `${quote}${replacement}${quote}`;
}

/**
 * The header's value runs to the end of the line (a Digest value has quotes of its own) unless
 * quotes hold it: `-H "Authorization: Basic …"` ends at the quote that opened before the name,
 * `"Authorization": "Token …"` at the value's own.
 */
function authorization(
  _m: string,
  before: string,
  name: string,
  separator: string,
  open: string,
  rest: string,
): string {
  const stop = open || (before && !separator.startsWith(before) ? before : '');
  const end = stop ? rest.indexOf(stop) : -1;
  const value = end >= 0 ? rest.slice(0, end) : rest;
  if (value.trim() === '' || value === REDACTED) return _m;
  const scheme = /^([A-Za-z][\w-]*)[ \t]+\S/.exec(value)?.[1];
  return `${before}${name}${separator}${open}${scheme ? `${scheme} ` : ''}${REDACTED}${end >= 0 ? rest.slice(end) : ''}`;
}

/**
 * `name=value` and `"name": "value"` with any name: a greedy name is cheap to match, and a name
 * that is not a secret hands its value back to be searched again (`url=https://h/?token=x`).
 */
const ASSIGNMENT = new RegExp(String.raw`(["']?)\b([A-Za-z_][\w.-]*)\1([ \t]*[=:][ \t]*)(${VALUE})`, 'g');
const MAYBE_SECRET = new RegExp(SECRET_WORD, 'i');

function assignment(match: string, quote: string, name: string, separator: string, value: string): string {
  if (MAYBE_SECRET.test(name) && isSecretName(name))
    return value === REDACTED ? match : `${quote}${name}${quote}${separator}${quotedOr(value, REDACTED)}`;
  const searched = MAYBE_SECRET.test(value) ? value.replace(ASSIGNMENT, assignment) : value;
  return `${quote}${name}${quote}${separator}${searched}`;
}

const programs = PASSWORD_SHORT_FLAGS.map(
  ({ program, flag }) => String.raw`\b${program.replace(' ', String.raw`\s+(?:\S+\s+)*?`)}\s+(?:[^\n;|&]*?\s)?${flag}`,
);

export const SHAPES: readonly Shape[] = [
  // PEM blocks (private keys, and certificates with them): everything between the armour lines.
  {
    hint: /-----BEGIN/,
    pattern: /(-----BEGIN ([A-Z0-9 ]{1,60})-----)([\s\S]*?)(?:(-----END \2-----)|$)/g,
    replace: (_m, begin, _label, body, end = '') =>
      body.trim() === ''
        ? `${begin}${body}${end}`
        : `${begin}${/^\s*/.exec(body)![0]}${REDACTED}${/\s*$/.exec(body)![0]}${end}`,
  },
  { pattern: new RegExp(String.raw`\b(?:${PREFIXED_TOKENS.join('|')})`, 'g'), replace: REDACTED },
  {
    hint: /:\/\//,
    pattern: new RegExp(String.raw`(https?://(?:${WEBHOOK_PATHS.join('|')}))[^\s"'<>)]+`, 'gi'),
    replace: '$1' + REDACTED,
  },
  // Authorization of any scheme (Basic, Bearer, Digest, AWS4-HMAC-SHA256 …): the scheme stays.
  {
    hint: /authoriz/i,
    pattern: /(["']?)\b((?:proxy-)?authorization)(["']?[ \t]*[:=][ \t]*)(["']?)([^\r\n]*)/gi,
    replace: authorization,
  },
  { hint: /cookie/i, pattern: /\b((?:set-)?cookie["']?[ \t]*:[ \t]*["']?)[^"'\r\n]+/gi, replace: '$1' + REDACTED },
  { hint: /bearer/i, pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, replace: '$1' + REDACTED },
  // https://user:pass@host — the user and host stay; https://<long token>@host — the host stays.
  { hint: /:\/\/.*@/, pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(@)/gi, replace: `$1${REDACTED}$2` },
  { hint: /:\/\/.*@/, pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[A-Za-z0-9_-]{20,}(@)/gi, replace: `$1${REDACTED}$2` },
  // Query parameters that are secrets by name alone in a URL (`?key=`, `&sig=`, `&code=`).
  {
    hint: /[?&](?:key|sig|code|signature)=/i,
    pattern: /([?&](?:key|sig|code|signature)=)[^&#\s"'<>]+/gi,
    replace: '$1' + REDACTED,
  },
  // `mysql -u root -p X`, `sshpass -p X`: the programs known to take a password after a short flag.
  {
    hint: /mysql|mariadb|sshpass|redis-cli|login/,
    pattern: new RegExp(String.raw`((?:${programs.join('|')})\s*)(?!-)(${VALUE})`, 'g'),
    replace: (_m, head, value) => head + quotedOr(value, REDACTED),
  },
  // `--password X`, `--api-key X`, `-token X`: a flag naming a secret, then its value.
  {
    hint: new RegExp(String.raw`-[\w-]*${SECRET_WORD}`, 'i'),
    pattern: new RegExp(
      String.raw`(?<![\w-])(--?(?=[A-Za-z])([\w-]*?${SECRET_WORD}[\w-]*)[ \t]+)(?!-)(${VALUE})`,
      'gi',
    ),
    replace: (match, head, name, value) => (isSecretName(name) ? head + quotedOr(value, REDACTED) : match),
  },
  // password=…, "token": "…", ACME_SIGNING_SECRET_V2=…, --api-key=… (not "max_tokens": 3).
  {
    // (Not before a number: `"input_tokens": 1200` is in every agent event and never a secret.)
    hint: new RegExp(String.raw`${SECRET_WORD}[\w.-]*["']?[ \t]*[=:][ \t]*[^\s\d{[]`, 'i'),
    pattern: ASSIGNMENT,
    replace: assignment,
  },
];

/**
 * A word one of the shapes above needs somewhere in the text. Most lines (an agent's events, a
 * build's output) have none, and one test instead of a dozen replaces keeps the cost per
 * recorded line small.
 */
export const HINT = new RegExp(
  [
    'sk-',
    'gh[pousr]_',
    'github_pat_',
    'glpat-',
    'xox',
    'xapp-',
    'AKIA',
    'ASIA',
    'AIza',
    '_live_',
    '_test_',
    'npm_',
    'pypi-',
    'hf_',
    'dop_v1_',
    'shp',
    String.raw`SG\.`,
    'eyJ',
    'bearer',
    'authoriz',
    'cookie',
    ':\\/\\/',
    '-----BEGIN',
    SECRET_WORD,
    'code=',
    'mysql',
    'mariadb',
    'redis-cli',
    'login',
    'hooks',
    'hc-ping',
    'telegram',
  ].join('|'),
  'i',
);

/** A whole line of base64 (a key's body printed without its armour): long, and mixing cases and digits. */
export const BASE64_LINE = /^[ \t]*[A-Za-z0-9+/]{40,}={0,2}[ \t]*$/gm;

export function hideBase64Lines(text: string): string {
  if (text.length < 40) return text;
  return text.replace(BASE64_LINE, (line) =>
    /[a-z]/.test(line) && /[A-Z]/.test(line) && /[0-9]/.test(line) ? REDACTED : line,
  );
}
