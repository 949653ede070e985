/**
 * A small JSON Schema (2020-12) validator for the keywords deadman.schema.json uses, so that a
 * test can ask "would an editor accept this config?" without a validator dependency. An unknown
 * keyword fails the check, so a schema change cannot silently widen what is accepted here.
 */
type Schema = Record<string, unknown>;

const IGNORED = new Set(['$schema', '$id', 'title', 'description', 'default', 'format']);
const CHECKED = new Set([
  'type',
  'properties',
  'additionalProperties',
  'required',
  'propertyNames',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'items',
  'oneOf',
  'anyOf',
]);

/** The first reason `value` does not match `schema`, or null when it does. */
export function schemaProblem(schema: Schema, value: unknown, at = '$'): string | null {
  for (const keyword of Object.keys(schema)) {
    if (!IGNORED.has(keyword) && !CHECKED.has(keyword))
      throw new Error(`${at}: keyword ${keyword} is not supported by this validator`);
  }
  const fail = (why: string) => `${at}: ${why}`;
  if (schema.type !== undefined && ![schema.type].flat().some((type) => hasType(value, type as string)))
    return fail(`not ${String(schema.type)}`);
  if (schema.const !== undefined && value !== schema.const) return fail(`not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return fail(`not one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    return fail(`does not match ${schema.pattern}`);
  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum)
    return fail('below minimum');
  if (typeof value === 'number' && typeof schema.maximum === 'number' && value > schema.maximum)
    return fail('above maximum');
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) return fail('too few items');
    if (schema.items)
      for (const [i, item] of value.entries()) {
        const problem = schemaProblem(schema.items as Schema, item, `${at}[${i}]`);
        if (problem) return problem;
      }
  }
  if (isObject(value)) {
    const problem = objectProblem(schema, value, at);
    if (problem) return problem;
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => schemaProblem(s as Schema, value, at) === null))
    return fail('matches none of anyOf');
  if (Array.isArray(schema.oneOf)) {
    const matches = schema.oneOf.filter((s) => schemaProblem(s as Schema, value, at) === null).length;
    if (matches !== 1) return fail(`matches ${matches} of oneOf, not exactly 1`);
  }
  return null;
}

function objectProblem(schema: Schema, value: Record<string, unknown>, at: string): string | null {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const key of (schema.required ?? []) as string[]) if (!(key in value)) return `${at}: ${key} is required`;
  for (const [key, item] of Object.entries(value)) {
    if (schema.propertyNames) {
      const problem = schemaProblem(schema.propertyNames as Schema, key, `${at} key ${key}`);
      if (problem) return problem;
    }
    const sub = properties[key] ?? schema.additionalProperties;
    if (sub === false) return `${at}: ${key} is not allowed`;
    if (sub && sub !== true) {
      const problem = schemaProblem(sub as Schema, item, `${at}.${key}`);
      if (problem) return problem;
    }
  }
  return null;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  if (type === 'null') return value === null;
  return typeof value === type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
