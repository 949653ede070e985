import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir, userInfo } from 'node:os';
import { waitFor } from './cli.ts';

/**
 * A real Postgres server of the test's own: initdb into a temp directory, a unix socket there
 * and no TCP at all (`listen_addresses = ''`), password authentication (scram), stopped when
 * the test ends — only the postmaster this helper started is signalled. As root the server runs
 * as the `postgres` user (or nobody), since postgres refuses to run as root.
 */

export interface Postgres {
  /** A URI with the password in it, as a user would write it into deadman.toml. */
  uri: string;
  password: string;
  /** Runs SQL as the superuser (setting up tables); throws on failure. */
  sql(statements: string): string;
}

/** Where the server binaries are: Debian keeps them in /usr/lib/postgresql/N/bin, off PATH. */
function serverBinDir(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return join(onPath, '..');
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = versions.map((v) => join(base, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  return found ?? null;
}

/**
 * A `skip` value for a test that needs a Postgres server and psql: false when both are here,
 * else the reason — or a throw under DEADMAN_REQUIRE_POSTGRES=1 (.ci/run installs postgresql,
 * so a skip there would hide a test that never ran).
 */
export function skipUnlessPostgres(): false | string {
  const psql = spawnSync('psql', ['--version'], { stdio: 'ignore' }).status === 0;
  const reason = !psql
    ? 'psql is not installed here'
    : serverBinDir() === null
      ? 'the PostgreSQL server (initdb) is not installed here'
      : null;
  if (reason === null) return false;
  if (process.env.DEADMAN_REQUIRE_POSTGRES === '1')
    throw new Error(`${reason} (DEADMAN_REQUIRE_POSTGRES=1 forbids skipping)`);
  return reason;
}

/** Starts the server and registers its stop with `t.after`; resolves once it accepts connections. */
export async function startPostgres(t: { after(fn: () => void | Promise<void>): void }): Promise<Postgres> {
  const bin = serverBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'deadman-postgres-'));
  let server: ChildProcess | undefined;
  let exited = Promise.resolve();
  t.after(async () => {
    // SIGINT is postgres's fast shutdown; only the postmaster this helper spawned is signalled.
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const asUser = userInfo().uid === 0 ? serverUser() : null;
  const data = join(dir, 'data');
  const password = 'pw-s3cret-Q7x';
  writeFileSync(join(dir, 'pwfile'), `${password}\n`);
  mkdirSync(data, { mode: 0o700 });
  chmodSync(dir, 0o755);
  if (asUser !== null) for (const path of [dir, data, join(dir, 'pwfile')]) chownSync(path, asUser.uid, asUser.gid);
  const as = (argv: string[]) =>
    asUser === null
      ? argv
      : ['setpriv', `--reuid=${asUser.uid}`, `--regid=${asUser.gid}`, '--clear-groups', '--', ...argv];
  const [initProgram, ...initArgs] = as([
    join(bin, 'initdb'),
    '-D',
    data,
    '-U',
    'deadman',
    '--auth=scram-sha-256',
    `--pwfile=${join(dir, 'pwfile')}`,
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initProgram!, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const [program, ...args] = as([
    join(bin, 'postgres'),
    '-D',
    data,
    '-k',
    dir,
    '-c',
    'listen_addresses=',
    '-c',
    'fsync=off',
  ]);
  const started = spawn(program!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  server = started;
  let log = '';
  started.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
  const uri = `postgresql://deadman:${password}@/postgres?host=${encodeURIComponent(dir)}`;
  const sql = (statements: string): string => {
    const run = spawnSync(
      'psql',
      [
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        '-d',
        `postgresql://deadman@/postgres?host=${encodeURIComponent(dir)}`,
        '-c',
        statements,
      ],
      { encoding: 'utf8', env: { ...process.env, PGPASSWORD: password } },
    );
    if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
    return run.stdout;
  };
  await waitFor(
    () => {
      if (started.exitCode !== null) throw new Error(`postgres exited ${started.exitCode}: ${log}`);
      return spawnSync('psql', ['-X', '-q', '-d', uri, '-c', 'SELECT 1'], { stdio: 'ignore' }).status === 0;
    },
    30_000,
    'postgres to accept connections',
  );
  return { uri, password, sql };
}

/** postgres refuses root: the `postgres` account the package made, else nobody. */
function serverUser(): { uid: number; gid: number } {
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody account exists to run the server as');
}
