import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { MARKER_VERSION } from './marker-version.ts';
import { canonicalJson } from './canonical-json.ts';
import { NAME_PATTERN } from '../config/name-pattern.ts';

/**
 * The revive marker: `<state>/markers/<name>.json`, written before the work starts and kept
 * up to date, so that after a crash or reboot deadman knows which session to bring back and
 * how. Parsed with zod only when a marker file exists (a fresh start never loads it). The
 * file also holds `mac`, an HMAC over the rest (see `markerMacInput`): only a process that can
 * read the state directory's key can write a marker deadman will act on. zod/mini, English
 * messages as zod's own: `deadman status` reads every marker, and zod's chained API would
 * cost a probe's start ~200 KB more code (core/status/health.ts).
 */

export const markerOwnerSchema = z.object({
  pid: z.int().check(z.positive()),
  /** Start time in clock ticks (Linux /proc); null where it cannot be read. */
  startTime: z.nullable(z.number()),
});

export const markerSchema = z.object({
  version: z.literal(MARKER_VERSION),
  name: z.string().check(z.regex(NAME_PATTERN)),
  adapter: z.enum(['codex', 'claude', 'generic']),
  sessionId: z.nullable(z.string()),
  /** The original command line, never the resume one: every revive is built from it. */
  argv: z.array(z.string()).check(z.minLength(1)),
  cwd: z.string(),
  /** The run's tag (lib/core/process/run-tag.ts), in its agent's environment: finds the agent after its supervisor died. */
  runTag: z.nullable(z.string().check(z.regex(/^[0-9a-f]{32}$/))),
  /** The original prompt, repeated in the revive message so the agent has context. */
  task: z.nullable(z.string()),
  /** Wall-clock milliseconds. */
  startedAt: z.number(),
  updatedAt: z.number(),
  state: z.enum(['running', 'completed', 'interrupted', 'exhausted']),
  reason: z.nullable(z.string()),
  /** Revives since the last clean completion. */
  reviveCount: z.int().check(z.nonnegative()),
  owner: z.nullable(markerOwnerSchema),
  /** Set when `deadman revive` launched the resume detached: its output, read to learn how it ended. */
  detachedLog: z._default(z.nullable(z.string()), null),
});

export type Marker = z.output<typeof markerSchema>;
export type MarkerOwner = z.output<typeof markerOwnerSchema>;

/** zod's English messages, which zod/mini does not register by itself. */
const ENGLISH = en().localeError;

export type ParsedMarker = { ok: true; marker: Marker } | { ok: false; problem: string };

/** The text a marker file's `mac` covers: everything else in the file, in canonical form. */
export function markerMacInput(value: object): string {
  const { mac: _mac, ...content } = value as { mac?: unknown };
  return canonicalJson(content);
}

/** Parses a marker file's JSON value (readMarker parsed the text); any defect is a one-line problem, never an exception. */
export function parseMarkerValue(value: unknown): ParsedMarker {
  const version = (value as { version?: unknown } | null)?.version;
  if (version !== MARKER_VERSION)
    return {
      ok: false,
      problem: `has version ${JSON.stringify(version)}, this deadman reads version ${MARKER_VERSION}`,
    };
  const parsed = markerSchema.safeParse(value, { error: ENGLISH });
  if (parsed.success) return { ok: true, marker: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `has a bad "${issue.path.join('.') || '(root)'}": ${issue.message}` };
}
