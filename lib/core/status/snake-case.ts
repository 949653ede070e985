/**
 * The one style of every `--json` (docs/cli-json.md): keys in snake_case. Documents built
 * from camelCase TypeScript objects pass through here at the edge, so the types inside stay
 * idiomatic and the output stays one style. Arrays and nested objects are converted; values
 * (strings, numbers, null) are kept as they are. Pure.
 */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      snakeCaseKeys(item),
    ]),
  );
}
