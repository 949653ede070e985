/**
 * Whether a name (an environment variable, a `key=value` key, a `--flag`, a query parameter)
 * says its value is a secret. The name is split into its words (`ACME_SIGNING_SECRET_V2` →
 * acme, signing, secret, v2; `apiKey` → api, key), so SECRET, TOKEN, KEY, PASSWORD and
 * CREDENTIAL count wherever they stand — but only as whole words: `max_tokens`, `keyboard` and
 * `monkey` are not secrets. A last word that names something about the secret rather than the
 * secret itself (`TOKEN_COUNT`, `KEY_FILE`, `ACCESS_KEY_ID`) makes the name ordinary again: a
 * count or a path is worth keeping, and a key's id is not the key.
 */

const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'token',
  'password',
  'passwd',
  'passphrase',
  'pass',
  'credential',
  'credentials',
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'signingkey',
  'signature',
  'sig',
  'cookie',
]);
/** `key` alone is too common a word ("press any key: ") unless another word qualifies it: `API_KEY`, `signing-key`. */
const QUALIFIED_ONLY = 'key';
/** `auth` counts only as the last word: `GITHUB_AUTH` is a secret, `SSH_AUTH_SOCK` and `auth_type` are not. */
const LAST_ONLY = 'auth';
const ABOUT_THE_SECRET = new Set([
  'count',
  'counts',
  'limit',
  'limits',
  'usage',
  'type',
  'kind',
  'len',
  'length',
  'size',
  'budget',
  'file',
  'path',
  'dir',
  'name',
  'id',
  'ids',
  'env',
  'var',
  'url',
  'uri',
  'endpoint',
  'expiry',
  'expires',
  'ttl',
]);

/** A substring every secret name has (a cheap first filter; `isSecretName` decides). */
export const SECRET_WORD = '(?:secret|token|pass|credential|key|auth|sig|cookie)';

export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0 || ABOUT_THE_SECRET.has(words.at(-1)!)) return false;
  if (words.at(-1) === LAST_ONLY) return true;
  return words.some((word) => SECRET_WORDS.has(word) || (word === QUALIFIED_ONLY && words.length > 1));
}

/**
 * Programs known to take a password after a short flag, and that flag: `mysql -p X`,
 * `sshpass -p X`, `redis-cli -a X`. Deliberately short: elsewhere `-p` is a port (`docker run
 * -p 8080:80`, `ssh -p 22`) or a path, and hiding those would hide what a report must say.
 * `docker login -p` and `podman login -p` count only with `login`.
 */
export const PASSWORD_SHORT_FLAGS: ReadonlyArray<{ program: string; flag: string }> = [
  ...[
    'mysql',
    'mysqldump',
    'mysqladmin',
    'mysqlimport',
    'mysqlshow',
    'mysqlcheck',
    'mysqlpump',
    'mysqlslap',
    'mariadb',
    'mariadb-dump',
    'mariadb-admin',
    'mariadb-import',
    'mariadb-check',
    'mariadb-show',
    'sshpass',
  ].map((program) => ({ program, flag: '-p' })),
  { program: 'redis-cli', flag: '-a' },
  { program: 'docker login', flag: '-p' },
  { program: 'podman login', flag: '-p' },
];
