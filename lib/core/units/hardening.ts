import { quotePath } from './systemd-quote.ts';
import { usageError } from '../../exit-codes.ts';

/**
 * The sandboxing lines of a generated unit, at the level `--sandbox` (or `[unit] sandbox`)
 * asks for. An agent must still build, test, install packages under its HOME, write temp files,
 * start tools in sessions of their own, talk to its API and keep its session files, so each line
 * takes away only what such work never needs, and says so. A `--user` unit gets only what a user
 * manager applies and still hears READY=1 from, root's and any other user's alike
 * (docs/systemd.md "Sandboxing" lists each level line by line, and what was seen to fail). Pure.
 */

export const SANDBOX_LEVELS = ['strict', 'default', 'off'] as const;
export type SandboxLevel = (typeof SANDBOX_LEVELS)[number];

export interface HardeningSpec {
  level: SandboxLevel;
  scope: 'system' | 'user';
  /** Directories the job writes besides HOME: the working directory, the database's, the state directory. */
  writablePaths: readonly string[];
  /** Directories others own and read (node_exporter's textfile directory): writable when they exist, never required. */
  sharedWritablePaths?: readonly string[];
  /** What the unit starts (Node, deadman's entry, the program): it must stay visible too. */
  startedPaths: readonly string[];
  /** `User=` of a system unit, null in a user unit: only root's jobs keep capabilities. */
  runAs: string | null;
  /** The job's HOME as the unit names it: `%h` in a user unit; in a system unit %h is root's, so User='s own path. */
  home: string;
}

/** Under /tmp a private /tmp would hide the files from everyone else, deadman's own readers included. */
const SHARED_TMP = /^\/(var\/)?tmp(\/|$)/;

/** Kernel interfaces no agent's tool uses; a filtered call fails with EPERM instead of killing the tool. */
const UNUSED_SYSCALLS = '~@clock @cpu-emulation @module @obsolete @raw-io @reboot @swap';

/** What a root job never needs even as root: modules, reboot, clock, raw I/O, audit and MAC rules, wake locks. */
const ROOT_NEVER_NEEDS =
  '~CAP_SYS_MODULE CAP_SYS_BOOT CAP_SYS_TIME CAP_SYS_RAWIO CAP_MKNOD CAP_WAKE_ALARM CAP_SYS_PACCT ' +
  'CAP_LINUX_IMMUTABLE CAP_BLOCK_SUSPEND CAP_SYS_TTY_CONFIG CAP_MAC_ADMIN CAP_MAC_OVERRIDE CAP_AUDIT_CONTROL CAP_AUDIT_READ CAP_SYSLOG CAP_BPF';

export function hardeningLines(spec: HardeningSpec): string[] {
  if (spec.level === 'off') {
    return [
      '# Sandboxing: none (--sandbox off). The job may read and change all its user may; only the',
      '# user (User=) and the cgroup limit it.',
    ];
  }
  const user = spec.scope === 'user';
  return [
    `# Sandboxing (systemd.exec(5); --sandbox ${spec.level}, docs/systemd.md "Sandboxing" gives each line's why).`,
    "# Setuid programs (sudo, su) cannot raise the job's privileges.",
    'NoNewPrivileges=yes',
    ...fileSystemLines(spec),
    ...(user ? userManagerNote() : systemOnlyLines()),
    '# The hostname cannot be changed; mounts the job makes stay its own.',
    'ProtectHostname=yes',
    'PrivateMounts=yes',
    '# Network and local sockets only (AF_NETLINK: tools that ask for interfaces and routes).',
    'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK',
    '# No new setuid files, no realtime starvation of the host, no personality switch, no 32-bit entry points.',
    'RestrictSUIDSGID=yes',
    'RestrictRealtime=yes',
    'LockPersonality=yes',
    'SystemCallArchitectures=native',
    ...systemCallLines(spec.level),
    ...capabilityLines(spec.runAs, spec.level),
    ...(spec.level === 'strict' ? strictLines(user) : []),
    "# Left out on purpose: MemoryDenyWriteExecute= (Node's JIT needs it), ProtectHome= (the agent",
    '# lives in HOME), PrivateNetwork= (agents talk to their API), ProtectKernelTunables= and',
    '# ProtectKernelLogs= (on hosts whose /proc/sys holds other mounts the unit fails with 226/NAMESPACE)',
    ...(spec.level === 'strict'
      ? ['# and ProcSubset= (deadman and ps read /proc/stat).']
      : ['# and RestrictNamespaces= (agent sandboxes such as bubblewrap create namespaces; --sandbox strict).']),
  ];
}

function fileSystemLines(spec: HardeningSpec): string[] {
  const writable = [...new Set(spec.writablePaths)];
  const shared = [...new Set(spec.sharedWritablePaths ?? [])].filter((path) => !writable.includes(path));
  const quote = (path: string) => {
    const quoted = quotePath(path);
    if (!quoted.ok) throw usageError(`ReadWritePaths= cannot hold ${JSON.stringify(path)}: ${quoted.error}`);
    return quoted.text;
  };
  const sharedTmp = [...writable, ...shared, ...spec.startedPaths].some((path) => SHARED_TMP.test(path));
  // "-": a directory that does not exist (yet) must not keep the unit from starting.
  const paths = [
    ...writable.map(quote),
    ...shared.map((path) => `-${quote(path)}`),
    ...(sharedTmp ? ['-/tmp', '-/var/tmp'] : []),
  ];
  const home = spec.home === '%h' ? '%h' : quote(spec.home);
  return [
    `# The whole file system is read-only except HOME (${spec.home}: the agent's login, caches, session`,
    `# files), the working directory, deadman's records${sharedTmp ? ', /tmp and /var/tmp' : ''} (and a [metrics] textfile`,
    '# directory, "-": if it exists); add paths the job must write.',
    'ProtectSystem=strict',
    `ReadWritePaths=${[home, ...paths].join(' ')}`,
    ...(sharedTmp
      ? [
          '# No PrivateTmp=: the work, its records or deadman itself live under /tmp, which must stay the',
          '# shared one; it and /var/tmp stay writable above (compilers, pip, npm and agents write temp files).',
        ]
      : [
          "# A writable /tmp and /var/tmp of its own: temp files work, and one job's leftovers never meet",
          "# another's and vanish on stop.",
          'PrivateTmp=yes',
        ]),
  ];
}

/** Lines a user manager cannot apply, or applies so that READY=1 is never heard (docs/systemd.md). */
function systemOnlyLines(): string[] {
  return [
    '# No physical devices (add DeviceAllow= for a GPU), no kernel modules, the clock stays.',
    'PrivateDevices=yes',
    'ProtectKernelModules=yes',
    'ProtectClock=yes',
    "# cgroups are read-only (deadman only reads its own); other users' processes are invisible.",
    'ProtectControlGroups=yes',
    'ProtectProc=invisible',
  ];
}

function userManagerNote(): string[] {
  return [
    "# No PrivateDevices=, ProtectKernelModules=, ProtectClock= (a user manager that is not root's",
    '# fails them: 218/CAPABILITIES), no ProtectControlGroups=, ProtectProc= (with /run not a mount',
    "# of its own, they cover the manager's notify socket and READY=1 never arrives).",
  ];
}

function systemCallLines(level: SandboxLevel): string[] {
  if (level === 'strict') {
    return [
      "# Only the system calls of ordinary services (systemd's @system-service); others fail with EPERM.",
      'SystemCallFilter=@system-service',
      'SystemCallErrorNumber=EPERM',
    ];
  }
  return [
    '# Kernel interfaces no tool of an agent uses (clock, modules, reboot, swap, raw I/O, obsolete',
    '# calls) fail with EPERM; the rest stays, ptrace and mount (debuggers, bubblewrap) included.',
    `SystemCallFilter=${UNUSED_SYSCALLS}`,
    'SystemCallErrorNumber=EPERM',
  ];
}

function capabilityLines(runAs: string | null, level: SandboxLevel): string[] {
  if (runAs === null) {
    return [
      "# A user namespace of its own, holding no capabilities (a user manager that is not root's can",
      "# drop them only inside one): the job does what its user may, never more, even under root's",
      "# user manager (use a system unit for a job that needs root's powers). Its keys stay its own.",
      'PrivateUsers=yes',
      'CapabilityBoundingSet=',
      'KeyringMode=private',
    ];
  }
  if (runAs !== 'root' || level === 'strict')
    return ['# No capabilities at all, not even through file capabilities.', 'CapabilityBoundingSet='];
  return [
    '# Root keeps root (it was given on purpose) but for what no job needs: modules, reboot, the',
    '# clock, raw I/O, device nodes, audit and MAC rules, wake locks, BPF.',
    `CapabilityBoundingSet=${ROOT_NEVER_NEEDS}`,
  ];
}

function strictLines(user: boolean): string[] {
  const ipc = user
    ? // Seen on a Debian 12 host: PrivateIPC= under a user manager that is not root's fails every start with 226/NAMESPACE.
      [
        "# No PrivateIPC=: a user manager that is not root's may fail to set it up (226/NAMESPACE) on",
        "# some kernels; System V IPC stays shared with this user's other processes.",
      ]
    : ['PrivateIPC=yes'];
  return [
    '# strict: no new namespaces (breaks agent sandboxes such as bubblewrap: run the agent without',
    `# its own sandbox)${user ? '' : ', no shared System V IPC'}, files private to the user by default.`,
    'RestrictNamespaces=yes',
    ...ipc,
    'UMask=0077',
  ];
}
