import { z } from 'zod';
import { configSchema } from './config.ts';
import { formatDuration } from '../time/duration.ts';
import { KEY_DESCRIPTIONS } from './key-descriptions.ts';

/**
 * The JSON Schema of deadman.toml for editors (taplo, Even Better TOML): generated from the zod
 * schema, so it cannot drift from what `deadman run` accepts, with a description on every key
 * from KEY_DESCRIPTIONS and durations in systemd's spelling. contrib/deadman.schema.json ships this
 * output (a test keeps the two equal). A regex cannot check each duration's range, a regular
 * expression's validity or that a claim's path stays inside its root: the descriptions say so,
 * and `deadman config check` checks them.
 */

export const CONFIG_SCHEMA_ID = 'urn:deadman:deadman.toml';

type JsonNode = Record<string, unknown>;

export function configJsonSchema(): JsonNode {
  const generated = z.toJSONSchema(configSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: spanDefault,
  }) as JsonNode;
  // A zod schema used in several places (the argv of command, rerun, a claim) is one shared node:
  // copied apart first, so that each place gets its own description.
  const { $schema, ...rest } = JSON.parse(JSON.stringify(generated)) as JsonNode;
  describe(rest, []);
  return { $schema, $id: CONFIG_SCHEMA_ID, title: 'deadman.toml', ...rest };
}

/** Defaults of durations are milliseconds inside deadman; in the file they are spans. */
function spanDefault({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonNode }): void {
  const def = zodSchema._zod.def as unknown as { type: string; defaultValue?: unknown };
  if (def.type === 'default' && typeof def.defaultValue === 'number' && isSpan(jsonSchema))
    jsonSchema.default = formatDuration(def.defaultValue);
}

function isSpan(node: JsonNode): boolean {
  return typeof node.description === 'string' && node.description.startsWith('systemd time span');
}

/** Puts each key's line first; a duration keeps its syntax and range (its zod meta) after it. */
function describe(node: JsonNode, path: string[]): void {
  const line = KEY_DESCRIPTIONS[keyOf(path)];
  if (line !== undefined) node.description = isSpan(node) ? `${line} ${String(node.description)}` : line;
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonNode>))
    describe(child, [...path, key]);
  if (isNode(node.items)) describe(node.items, [...path, '[]']);
  if (isNode(node.additionalProperties)) describe(node.additionalProperties, [...path, '*']);
  // The claim kinds are variants of one key; the path-xor-glob rule ({required: [...]}) is not a key.
  for (const variant of (node.oneOf ?? []) as JsonNode[]) if (variant.properties) describe(variant, path);
}

function isNode(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null;
}

/** `jobs / * / evidence / []` → `claim`; `jobs / *` → `job`; `activity / window` → `activity.window`. */
function keyOf(path: string[]): string {
  return path
    .join('.')
    .replace(/\.(\[\])/g, '$1')
    .replace(/^(jobs\.\*\.)?evidence\[\]/, 'claim')
    .replace(/^jobs\.\*/, 'job');
}
