import { heading, roffText, subheading, tagged, titleLine } from './roff.ts';

/**
 * deadman.toml(5), from the JSON Schema of the config (which is generated from the zod schema
 * and carries a description and default for each key), so the page says what the parser does.
 */

type Node = {
  type?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node;
  oneOf?: Node[];
  anyOf?: Node[];
};

export function renderConfigManPage(schema: Node, version: string): string {
  const top = schema.properties ?? {};
  const plain = Object.entries(top).filter(([, node]) => !isTable(node));
  const tables = Object.entries(top).filter(([, node]) => isTable(node));
  const lines = [
    titleLine('deadman.toml', 5, version, 'File Formats'),
    heading('NAME'),
    'deadman.toml \\- configuration of deadman',
    heading('DESCRIPTION'),
    roffText(schema.description ?? ''),
    '.PP',
    roffText(
      'TOML. Durations are systemd time spans (systemd.time(7)): "90s", "7min", "1h 30min", "1.5h", "3 days"; a bare number is seconds.' +
        ' Each top-level key is also a flag of deadman run (hung_timeout is --hung-timeout); flags win over the file.' +
        ' Check a file with deadman config check --config FILE; editors can use contrib/deadman.schema.json from the package.',
    ),
    heading('TOP-LEVEL KEYS'),
    ...plain.flatMap(([key, node]) => keyLines(key, node)),
    ...tables.flatMap(([key, node]) => tableLines(key, node)),
    heading('SEE ALSO'),
    '.BR deadman (1),',
    '.BR systemd.time (7)',
    '',
  ];
  return lines.join('\n');
}

function isTable(node: Node): boolean {
  return node.type === 'object' || (node.type === 'array' && Boolean(node.items?.oneOf));
}

function tableLines(key: string, node: Node): string[] {
  if (node.type === 'array')
    return [heading(`[[${key}]]`), roffText(node.description ?? ''), ...claimLines(node.items!)];
  if (node.additionalProperties) {
    const job = node.additionalProperties;
    const keys = Object.entries(job.properties ?? {});
    return [
      heading(`[${key}.NAME]`),
      roffText(job.description ?? ''),
      ...keys.flatMap(([name, child]) =>
        name === 'evidence'
          ? tagged('[[jobs.NAME.evidence]]', `${child.description ?? ''} Each is a claim as in [[evidence]].`)
          : keyLines(name, child),
      ),
    ];
  }
  return [
    heading(`[${key}]`),
    roffText(node.description ?? ''),
    ...Object.entries(node.properties ?? {}).flatMap(([name, child]) => keyLines(name, child)),
  ];
}

/** The claim kinds share some keys; each key is listed once, under the first kind that has it. */
function claimLines(union: Node): string[] {
  const seen = new Set<string>();
  return (union.oneOf ?? []).flatMap((variant) => {
    const kind = (variant.properties?.kind as { const?: string } | undefined)?.const ?? '?';
    const fresh = Object.entries(variant.properties ?? {}).filter(([name]) => !seen.has(name));
    for (const [name] of fresh) seen.add(name);
    return [subheading(`kind = "${kind}"`), ...fresh.flatMap(([name, child]) => keyLines(name, child))];
  });
}

function keyLines(key: string, node: Node): string[] {
  const fallback = node.default === undefined ? '' : ` Default: ${JSON.stringify(node.default)}.`;
  return tagged(key, `${(node.description ?? '').replace(/([^.])$/, '$1.')}${fallback}`);
}
