import { isStatable } from './container-output.ts';
import { globDepth, type CompiledGlob } from './glob-pattern.ts';

/**
 * The only commands deadman runs inside a job's container (`container = "NAME"`), each as an argv
 * (never a shell line) and each read-only: the facts a file claim is judged by — the clock and its
 * zone, a glob's matches, existence, type, size and mtime, the resolved path for the path scope,
 * and a sample of the content. Every one is in GNU coreutils/findutils and in busybox, with the
 * same options (the outputs differ only in error wording: container-output.ts). No operand needs
 * `--`: every path is absolute (the config schema says so), so none can be read as an option —
 * and some busybox applets do not know `--`.
 */

export const CONTAINER_COMMANDS = ['date', 'find', 'head', 'realpath', 'stat', 'tail'] as const;
export type ContainerCommand = (typeof CONTAINER_COMMANDS)[number];
export type ContainerArgv = readonly [ContainerCommand, ...string[]];

/** Seconds since the epoch and the zone's offset (`+0530`), in one line. */
export function clockArgv(): ContainerArgv {
  return ['date', '+%s %z'];
}

/**
 * Every entry below the glob's base, NUL-separated (a newline is a legal name character), down to
 * the depth the glob can reach. `-H` follows a base that is itself a symlink, as the host walk does;
 * nothing below is followed, so `**` cannot loop.
 */
export function findArgv(glob: CompiledGlob): ContainerArgv {
  const depth = globDepth(glob);
  return ['find', '-H', glob.base, ...(depth === null ? [] : ['-maxdepth', String(depth)]), '-print0'];
}

/**
 * `-L`: the facts of what a symlink points at, as the host's stat after realpath gives them. Mode
 * in hex, size, mtime in seconds, the name as given: one line each, so a name with a line break is
 * left out (parseStat reports it).
 */
export function statArgv(paths: readonly string[]): ContainerArgv {
  return ['stat', '-L', '-c', '%f %s %Y %n', ...paths.filter(isStatable)];
}

export function realpathArgv(paths: readonly string[]): ContainerArgv {
  return ['realpath', ...paths];
}

/** The first `bytes` of a file; `tail` its last. */
export function headArgv(path: string, bytes: number): ContainerArgv {
  return ['head', '-c', String(bytes), path];
}

export function tailArgv(path: string, bytes: number): ContainerArgv {
  return ['tail', '-c', String(bytes), path];
}
