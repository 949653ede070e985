import { quotePath } from './systemd-quote.ts';
import { usageError } from '../../exit-codes.ts';

/**
 * The sandboxing lines of a generated unit. An agent must still build, test, install packages
 * under its HOME, talk to its API and keep its session files, so each line takes away only what
 * such work never needs, and says so; what was left out, and why, is said too. Pure.
 */
export interface HardeningSpec {
  /** Directories the job writes besides HOME: the working directory, the database's, the state directory. */
  writablePaths: readonly string[];
  /** Directories others own and read (node_exporter's textfile directory): writable when they exist, never required. */
  sharedWritablePaths?: readonly string[];
  /** What the unit starts (Node, deadman's entry, the program): it must stay visible too. */
  startedPaths: readonly string[];
  /** `User=` of a system unit, null in a user unit: only root's jobs keep capabilities. */
  runAs: string | null;
}

/** Under /tmp a private /tmp would hide the files from everyone else, deadman's own readers included. */
const SHARED_TMP = /^\/(var\/)?tmp(\/|$)/;

export function hardeningLines(spec: HardeningSpec): string[] {
  const writable = [...new Set(spec.writablePaths)];
  const shared = [...new Set(spec.sharedWritablePaths ?? [])].filter((path) => !writable.includes(path));
  const quote = (path: string) => {
    const quoted = quotePath(path);
    if (!quoted.ok) throw usageError(`ReadWritePaths= cannot hold ${JSON.stringify(path)}: ${quoted.error}`);
    return quoted.text;
  };
  // "-": a shared directory that does not exist (yet) must not keep the unit from starting.
  const paths = [...writable.map(quote), ...shared.map((path) => `-${quote(path)}`)];
  const privateTmp = [...writable, ...shared, ...spec.startedPaths].some((path) => SHARED_TMP.test(path))
    ? ['# No PrivateTmp=: the work, its records or deadman itself live under /tmp, which must stay the shared one.']
    : ['# A /tmp of its own: leftovers of one job never meet another\'s, and vanish on stop.', 'PrivateTmp=yes'];
  return [
    '# Sandboxing (systemd.exec(5)). Setuid programs (sudo, su) cannot raise the job\'s privileges.',
    'NoNewPrivileges=yes',
    '# The whole file system is read-only except HOME (%h: the agent\'s login, caches, session',
    '# files), the working directory and deadman\'s records (and a [metrics] textfile directory,',
    '# "-": if it exists); add paths the job must write.',
    'ProtectSystem=strict',
    `ReadWritePaths=%h ${paths.join(' ')}`,
    ...privateTmp,
    '# No access to physical devices (add DeviceAllow= for a GPU), kernel modules, the clock or',
    '# the hostname; cgroups are read-only (deadman only reads its own).',
    'PrivateDevices=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'ProtectClock=yes',
    'ProtectHostname=yes',
    '# Network and local sockets only (AF_NETLINK: tools that ask for interfaces and routes).',
    'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK',
    'RestrictSUIDSGID=yes',
    'RestrictRealtime=yes',
    'LockPersonality=yes',
    '# Other users\' processes are invisible; deadman only looks at its own tree.',
    'ProtectProc=invisible',
    ...capabilityLines(spec.runAs),
    'SystemCallArchitectures=native',
    '# Left out on purpose: MemoryDenyWriteExecute= (Node\'s JIT needs it), RestrictNamespaces=',
    '# (agent sandboxes such as bubblewrap create namespaces), ProtectHome= (the agent lives in HOME),',
    '# ProtectKernelTunables= and ProtectKernelLogs= (on hosts whose /proc/sys holds other mounts the',
    '# unit then fails to start with 226/NAMESPACE; add them where `systemd-run -p` shows they work).',
  ];
}

function capabilityLines(runAs: string | null): string[] {
  if (runAs === null) return ['# A user unit has no capabilities to drop.'];
  if (runAs === 'root') return ['# Capabilities stay: a job that runs as root was given root on purpose.'];
  return ['# No capabilities at all, not even through file capabilities.', 'CapabilityBoundingSet='];
}
