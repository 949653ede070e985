import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.ts';
import { DEFAULT_CONFIG } from '../../core/config/defaults.ts';
import { formatProblems, limitProblems, phraseIssue } from '../../core/config/config-problems.ts';
import { configError } from '../../exit-codes.ts';
import { guardedStderr } from '../log/log.ts';
import { configCandidates, currentPathContext, type PathContext } from '../files/paths.ts';
import { issuesByJob, withoutJobs, type RefusedJob } from '../../core/config/job-refusals.ts';
import { validatedConfigCache, type ConfigSource, type ValidatedConfig } from './validated-cache.ts';

export interface LoadedConfig {
  /** The file that was read, or null when the built-in defaults apply. */
  file: string | null;
  config: Config;
  /** The top-level keys the file and the flags set; every other key has its default. */
  chosen: ReadonlySet<string>;
  /** With `jobsApart`: the jobs left out of `config.jobs` for their problems. */
  refusedJobs: RefusedJob[];
}

export interface LoadOptions {
  /** `--config FILE`. */
  explicitPath?: string | undefined;
  /** Settings given as flags, keyed like the file (`hung_timeout`); they win over the file. */
  flags?: Record<string, unknown>;
  cwd?: string;
  ctx?: PathContext;
  /**
   * An existing directory where configs validated by earlier starts are kept (the hot path of
   * `deadman run`); without it every load parses and validates.
   */
  cacheBase?: string | undefined;
  /** Where a note (not a problem) about the file goes; stderr by default. */
  onNote?: (line: string) => void;
  /**
   * A config whose only problems lie in some `[jobs.NAME]` loads without those jobs, which
   * come back in `refusedJobs` (`deadman check`, issue 22.7); any other problem still throws.
   */
  jobsApart?: boolean;
}

function noteOnStderr(line: string): void {
  guardedStderr().write(`deadman: note: ${line}\n`);
}

/** Finds the config file by the documented discovery order; null means built-in defaults. */
export function discoverConfigFile(options: LoadOptions): string | null {
  const ctx = options.ctx ?? currentPathContext();
  const cwd = options.cwd ?? process.cwd();
  if (options.explicitPath) return resolve(cwd, options.explicitPath);
  if (ctx.env.DEADMAN_CONFIG) return resolve(cwd, ctx.env.DEADMAN_CONFIG);
  return configCandidates(ctx, cwd).find((candidate) => existsSync(candidate)) ?? null;
}

/**
 * Reads, parses and validates the configuration. Throws a config error (exit 78) whose
 * message holds one line per problem. With no file and no flags it returns the defaults
 * without loading the TOML parser or zod, which keeps `deadman run` quick to start; with
 * `cacheBase`, so does a config validated by an earlier start (validated-cache.ts).
 */
export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const file = discoverConfigFile(options);
  const flags = options.flags ?? {};
  if (file === null && Object.keys(flags).length === 0)
    return { file: null, config: structuredClone(DEFAULT_CONFIG) as Config, chosen: new Set(), refusedJobs: [] };
  const source = file === null ? { file, text: '', uid: null } : readConfigFile(file);
  const note = options.onNote ?? noteOnStderr;
  const cache = options.cacheBase === undefined ? null : validatedConfigCache(options.cacheBase, source, flags, note);
  const cached = cache?.read() ?? null;
  const refusedJobs: RefusedJob[] = [];
  const validated = cached ?? (await validate(file, source.text, flags, options.jobsApart ? refusedJobs : null));
  if (cached === null && refusedJobs.length === 0) cache?.write(validated);
  // Valid TOML with nothing in it (empty, comments only) means every default: worth a note, not a refusal.
  if (validated.empty) note(`${file} has no settings; using the built-in defaults`);
  return { file, config: validated.config, chosen: new Set(validated.chosen), refusedJobs };
}

/** Validates file and flags; with `refused`, jobs whose problems are the only ones are left out and listed there. */
async function validate(
  file: string | null,
  text: string,
  flags: Record<string, unknown>,
  refused: RefusedJob[] | null,
): Promise<ValidatedConfig> {
  const raw = file === null ? {} : await parseToml(file, text);
  const { readEnglishEvidence } = await import('../../core/claims/english-evidence.ts');
  const english = readEnglishEvidence({ ...raw, ...flags });
  if (english.problems.length > 0)
    throw configError(english.problems.map((line) => `${file ?? 'command line'}: ${line}`).join('\n'));
  const merged = english.raw;
  const { configSchema, knownKeysAt } = await import('../../core/config/config.ts');
  const source = { file: file ?? 'command line', flagKeys: new Set(Object.keys(flags)) };
  const parse = (input: Record<string, unknown>) =>
    configSchema.safeParse(input, { error: (issue) => phraseIssue(issue as never) });
  let result = parse(merged);
  const byJob = result.success || refused === null ? null : issuesByJob(result.error.issues as never);
  if (byJob !== null) {
    for (const [job, issues] of byJob)
      refused!.push({ job, problems: formatProblems(issues, merged, source, knownKeysAt) });
    result = parse(withoutJobs(merged, new Set(byJob.keys())));
  }
  if (!result.success)
    throw configError(
      limitProblems(formatProblems(result.error.issues as never, merged, source, knownKeysAt)).join('\n'),
    );
  return {
    config: result.data,
    empty: file !== null && Object.keys(raw).length === 0,
    chosen: Object.keys({ ...raw, ...flags }),
  };
}

async function parseToml(file: string, text: string): Promise<Record<string, unknown>> {
  const { default: toml } = await import('@iarna/toml');
  try {
    return toml.parse(text) as Record<string, unknown>;
  } catch (error) {
    const e = error as Error & { line?: number; col?: number };
    const reason = e.message.split(' at row ')[0]!.split('\n')[0];
    const position = e.line === undefined ? '' : `:${e.line + 1}:${(e.col ?? 0) + 1}`;
    throw configError(`${file}${position}: TOML syntax error: ${reason}; fix the syntax at that position`);
  }
}

/** The file's text, and the owner of the very file read (a config cache entry is bound to both). */
function readConfigFile(file: string): ConfigSource {
  let bytes: Buffer;
  let uid: number;
  try {
    const fd = openSync(file, 'r');
    try {
      uid = fstatSync(fd).uid;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      {
        ENOENT: 'does not exist; check --config or $DEADMAN_CONFIG',
        EISDIR: 'is a directory, not a config file; point --config at a .toml file',
        EACCES: 'cannot be read (permission denied); make it readable by the user deadman runs as',
      }[code ?? ''] ?? `cannot be read (${code ?? (error as Error).message})`;
    throw configError(`${file}: ${why}`);
  }
  const text = bytes.toString('utf8');
  if (bytes.includes(0) || text.includes('\uFFFD')) {
    throw configError(`${file}: is not UTF-8 text (binary data); it must be a TOML file`);
  }
  return { file, text, uid };
}
