import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './cli.ts';
import { createPrivateCgroups, killCgroupTrees } from './cgroup-sandbox.ts';

/**
 * A private systemd user manager for one test file, always stopped afterwards.
 *
 * Usage (one manager shared by the subtests of a file):
 *   test('under systemd', async (t) => {
 *     const manager = await startUserManager(t);
 *     if (!manager) return;                       // skipped, reason already reported
 *     await t.test('…', async () => { … manager.writeUnit('x.service', text) … });
 *   });
 *
 * The manager runs in its own sub-cgroup (see cgroup-sandbox.ts for why), which teardown
 * empties: nothing a test started outlives it.
 *
 * Output: there is no journal, so every unit's stdout/stderr goes to `manager.logPath` (a unit
 * may still set `StandardOutput=append:/some/file` to get its output alone). The manager's own
 * lines do not reach that file; to see why a unit stopped, poll `Result` (e.g. `watchdog`).
 */

export type UnitProperties = Record<string, string>;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface UserManager {
  /** The environment for `systemctl --user` / `systemd-run --user` against this manager. */
  readonly env: NodeJS.ProcessEnv;
  /** Where `writeUnit` puts unit files (`$XDG_CONFIG_HOME/systemd/user`). */
  readonly unitDir: string;
  readonly pid: number;
  /** The units' stdout and stderr (DefaultStandardOutput=inherit), in start order. */
  readonly logPath: string;
  /** Writes a unit file and runs `daemon-reload`. */
  writeUnit(name: string, text: string): Promise<void>;
  /** `systemctl --user …`; never throws on a non-zero exit (is-active and status use them). */
  systemctl(...args: string[]): Promise<CommandResult>;
  show(unit: string, properties?: readonly string[]): Promise<UnitProperties>;
  /** `systemctl --user status` text, for asserting on the `Status:` line. */
  status(unit: string): Promise<string>;
  /** Polls `show` until `predicate` holds; throws with the last properties seen on timeout. */
  waitFor(
    unit: string,
    predicate: (p: UnitProperties) => boolean,
    timeoutMs: number,
    properties?: readonly string[],
  ): Promise<UnitProperties>;
  stop(): Promise<void>;
}

export interface SkippableContext {
  skip(message?: string): void;
  after(fn: () => void | Promise<void>): void;
}

/**
 * Where the manager lives, for tests that need it to look like a real one. Default: root's
 * manager with HOME and runtime dir in a private directory under the test user's HOME.
 */
export interface ManagerPlacement {
  /** Parent of the private directory holding HOME and the runtime dir (must be reachable by `uid`). */
  parent?: string;
  /** The runtime dir under this parent instead (e.g. "/run", where /run/user/UID lives), so a unit sees it where a real one is. */
  runtimeParent?: string;
  /** Run the manager itself as this uid and gid (root only): a user manager that is not root's. */
  uid?: number;
  gid?: number;
}

export const DEFAULT_PROPERTIES = [
  'ActiveState',
  'SubState',
  'Result',
  'NRestarts',
  'MainPID',
  'StatusText',
  'ExecMainCode',
  'ExecMainStatus',
] as const;

const SYSTEMD = '/lib/systemd/systemd';
const START_TIMEOUT_MS = 15_000;

/** Starts a manager, or reports why not: skip normally, fail when DEADMAN_REQUIRE_SYSTEMD=1. */
export async function startUserManager(
  t: SkippableContext,
  placement: ManagerPlacement = {},
): Promise<UserManager | null> {
  const unavailable =
    whyUnavailable() ??
    (placement.uid !== undefined && process.getuid?.() !== 0 ? 'a manager of another uid needs root' : null);
  if (unavailable) return skipOrFail(t, unavailable);
  let manager: UserManager;
  try {
    manager = await launch(placement);
  } catch (error) {
    return skipOrFail(t, `systemd user manager did not start: ${(error as Error).message}`);
  }
  t.after(() => manager.stop());
  return manager;
}

function skipOrFail(t: SkippableContext, reason: string): null {
  if (process.env.DEADMAN_REQUIRE_SYSTEMD === '1')
    throw new Error(`${reason} (DEADMAN_REQUIRE_SYSTEMD=1 forbids skipping)`);
  t.skip(reason);
  return null;
}

function whyUnavailable(): string | null {
  if (process.platform !== 'linux') return `no systemd on ${process.platform}`;
  if (!existsSync(SYSTEMD)) return `${SYSTEMD} is missing`;
  if (process.getuid?.() !== 0 && !existsSync('/run/systemd/system')) {
    return 'not root, and /run/systemd/system is missing (only root can create it)';
  }
  return null;
}

async function launch(placement: ManagerPlacement): Promise<UserManager> {
  // systemd --user refuses to run unless the host looks booted with systemd.
  mkdirSync('/run/systemd/system', { recursive: true });
  const cgroups = createPrivateCgroups();
  // The manager's HOME and XDG_RUNTIME_DIR, outside /tmp as real ones are: a unit with
  // PrivateTmp= must still reach its HOME and the manager's notify socket.
  const base = mkdtempSync(join(placement.parent ?? homedir(), '.deadman-systemd-'));
  const runtimeDir = placement.runtimeParent
    ? mkdtempSync(join(placement.runtimeParent, 'deadman-test-runtime-'))
    : join(base, 'runtime');
  if (!placement.runtimeParent) mkdirSync(runtimeDir, { mode: 0o700 });
  // 0711: units of other users (User= under root's manager) reach the notify socket, as under /run/systemd.
  chmodSync(runtimeDir, placement.uid === undefined ? 0o711 : 0o700);
  const configHome = join(base, 'config');
  const unitDir = join(configHome, 'systemd', 'user');
  mkdirSync(unitDir, { recursive: true });
  // Units print into the manager's log too (there is no journal to send them to).
  writeFileSync(
    join(configHome, 'systemd', 'user.conf'),
    '[Manager]\nDefaultStandardOutput=inherit\nDefaultStandardError=inherit\n',
  );
  const logPath = join(base, 'manager.log');
  const env = managerEnvironment(base, runtimeDir, configHome);
  const log = openSync(logPath, 'a');
  const { uid, gid } = placement;
  if (uid !== undefined) for (const path of [base, runtimeDir, ...cgroups]) chownTree(path, uid, gid ?? uid);
  // Root moves the shell into the cgroups (a uid of its own may not), then it becomes the manager's uid.
  const become = uid === undefined ? '' : `setpriv --reuid=${uid} --regid=${gid ?? uid} --clear-groups `;
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      `for f in "$@"; do echo $$ > "$f" || exit 97; done; exec ${become}"$0" --user`,
      SYSTEMD,
      ...cgroups.map((dir) => join(dir, 'cgroup.procs')),
    ],
    {
      env,
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  const manager = buildManager(child, { env, unitDir, logPath, cgroups, base, runtimeDir, uid, gid });
  try {
    await waitForRunning(manager, child, logPath);
  } catch (error) {
    await manager.stop();
    throw error;
  }
  return manager;
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else chownSync(child, uid, gid);
  }
}

function managerEnvironment(home: string, runtimeDir: string, configHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_RUNTIME_DIR: runtimeDir,
    XDG_CONFIG_HOME: configHome,
  };
  // The test runner may itself run under systemd; none of that must leak into the manager.
  for (const key of [
    'NOTIFY_SOCKET',
    'WATCHDOG_USEC',
    'WATCHDOG_PID',
    'DBUS_SESSION_BUS_ADDRESS',
    'INVOCATION_ID',
    'JOURNAL_STREAM',
    'LISTEN_PID',
    'LISTEN_FDS',
    'LISTEN_FDNAMES',
    'MANAGERPID',
  ]) {
    delete env[key];
  }
  return env;
}

async function waitForRunning(manager: UserManager, child: ChildProcess, logPath: string): Promise<void> {
  const describeLog = () => readFileSync(logPath, 'utf8').trim().split('\n').slice(-3).join(' | ') || 'no output';
  await waitFor(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`manager exited (${child.exitCode ?? child.signalCode}): ${describeLog()}`);
      }
      const state = (await manager.systemctl('is-system-running')).stdout.trim();
      return state === 'running' || state === 'degraded';
    },
    START_TIMEOUT_MS,
    'systemd --user to report running',
    100,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; log: ${describeLog()}`);
  });
}

interface ManagerPlaces {
  env: NodeJS.ProcessEnv;
  unitDir: string;
  logPath: string;
  cgroups: string[];
  /** The private HOME holding unit dir and log; removed once the manager is gone (with the runtime dir). */
  base: string;
  runtimeDir: string;
  /** The manager's uid and gid when not the test's: systemctl talks to it as that user. */
  uid: number | undefined;
  gid: number | undefined;
}

function buildManager(
  child: ChildProcess,
  { env, unitDir, logPath, cgroups, base, runtimeDir, uid, gid }: ManagerPlaces,
): UserManager {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killLeftovers = () => {
    killCgroupTrees(cgroups);
    rmSync(runtimeDir, { recursive: true, force: true });
    rmSync(base, { recursive: true, force: true });
  };
  const as = uid === undefined ? {} : { uid, gid: gid ?? uid };
  process.once('exit', killLeftovers);
  let stopped: Promise<void> | null = null;
  const manager: UserManager = {
    env,
    unitDir,
    logPath,
    pid: child.pid!,
    async writeUnit(name, text) {
      writeFileSync(join(unitDir, name), text);
      const reload = await manager.systemctl('daemon-reload');
      if (reload.code !== 0) throw new Error(`daemon-reload failed: ${reload.stderr.trim()}`);
    },
    systemctl: (...args) => run('systemctl', ['--user', ...args], env, as),
    async show(unit, properties = DEFAULT_PROPERTIES) {
      const result = await manager.systemctl('show', '-p', properties.join(','), unit);
      return parseProperties(result.stdout);
    },
    async status(unit) {
      return (await manager.systemctl('status', '--no-pager', '--full', '--lines=0', unit)).stdout;
    },
    async waitFor(unit, predicate, timeoutMs, properties = DEFAULT_PROPERTIES) {
      let last: UnitProperties = {};
      try {
        return await waitFor(
          async () => {
            last = await manager.show(unit, properties);
            return predicate(last) ? last : null;
          },
          timeoutMs,
          `${unit} to reach the expected state`,
          100,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
      }
    },
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
        killLeftovers();
        process.removeListener('exit', killLeftovers);
      })();
      return stopped;
    },
  };
  return manager;
}

export function parseProperties(text: string): UnitProperties {
  const properties: UnitProperties = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) properties[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return properties;
}

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  as: { uid?: number; gid?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env, encoding: 'utf8', ...as }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
}
