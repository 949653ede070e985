import { basename, isAbsolute, resolve } from 'node:path';
import { parseDuration } from '../../core/time/duration.ts';
import { usageError } from '../../exit-codes.ts';
import { findExecutable } from '../../io/units/executable.ts';
import { RUN_OPTIONS } from '../run/run-options.ts';

/**
 * What a unit's command line is made of, from the operator's arguments: the `deadman run`
 * options, the program's absolute path, the unit's name, its durations and its environment.
 */

/**
 * The generating shell's PATH (so the command and what it starts resolve as they did there)
 * and a forced notify path (`DEADMAN_NOTIFY`), which would otherwise be lost under a manager.
 */
export function carriedOver(env: NodeJS.ProcessEnv): Array<[string, string]> {
  return (['PATH', 'DEADMAN_NOTIFY'] as const).flatMap((key) =>
    env[key] ? [[key, env[key]] as [string, string]] : [],
  );
}

/** The `deadman run` options the operator gave (kebab-case keys), nothing else. */
export function runFlagValues(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const flag of Object.keys(RUN_OPTIONS)) {
    if (flag !== 'name' && args[flag] !== undefined) out[flag] = args[flag];
  }
  return out;
}

/** Back to arguments for the unit's `deadman run`, in the option table's order. */
export function runArgsFrom(values: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [flag, value] of Object.entries(values)) {
    if (value === true) out.push(`--${flag}`);
    else if (Array.isArray(value)) for (const item of value) out.push(`--${flag}`, String(item));
    else if (value !== false) out.push(`--${flag}`, String(value));
  }
  return out;
}

/** A service manager's PATH is not the shell's: the program is written with its absolute path. */
export function resolveProgram(program: string, cwd: string, path: string): string {
  if (program.includes('/')) {
    const absolute = isAbsolute(program) ? program : resolve(cwd, program);
    if (!findExecutable(absolute, path))
      throw usageError(`${absolute} is not an executable file; check the command after --`);
    return absolute;
  }
  const found = findExecutable(program, path);
  if (!found)
    throw usageError(`"${program}" was not found in PATH (${path || 'unset'}); give its absolute path after --`);
  return found;
}

export function defaultName(program: string): string {
  const cleaned = basename(program)
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, 100);
  return cleaned || 'job';
}

export function span(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const parsed = parseDuration(text);
  if (!parsed.ok) throw usageError(`${option} "${text}" ${parsed.error}`);
  if (parsed.ms === 0 || parsed.ms === Number.POSITIVE_INFINITY)
    throw usageError(`${option} must be above 0 and finite (the unit needs a real watchdog and restart delay)`);
  return parsed.ms;
}

export function parseEnvAssignments(assignments: readonly string[]): Array<[string, string]> {
  return assignments.map((assignment) => {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw usageError(`--env "${assignment}" must look like KEY=VALUE`);
    return [assignment.slice(0, eq), assignment.slice(eq + 1)];
  });
}
