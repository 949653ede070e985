/**
 * Prometheus text exposition format 0.0.4, as node_exporter's textfile collector and a scrape
 * read it: `# HELP`, `# TYPE`, then one sample per line, label values escaped. Pure.
 */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: ReadonlyArray<{ labels: Readonly<Record<string, string>>; value: number }>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function renderPrometheus(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`metric name ${JSON.stringify(family.name)} is not valid`);
    lines.push(
      `# HELP ${family.name} ${family.help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`,
      `# TYPE ${family.name} ${family.type}`,
    );
    for (const sample of family.samples)
      lines.push(`${family.name}${renderLabels(sample.labels)} ${renderValue(sample.value)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function renderLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([key, value]) => {
    if (!LABEL_NAME.test(key)) throw new Error(`label name ${JSON.stringify(key)} is not valid`);
    return `${key}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;
  });
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

function renderValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
