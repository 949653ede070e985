/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for checking what deadman
 * writes: every sample belongs to a family declared with # HELP and # TYPE before it, names and
 * labels follow the grammar, label values use only the three escapes, values are numbers.
 */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;

export function parsePrometheus(text: string): { types: Map<string, string>; samples: ParsedSample[] } {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition must end with a line break');
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const samples: ParsedSample[] = [];
  for (const [index, line] of text.split('\n').slice(0, -1).entries()) {
    const where = `line ${index + 1}: ${line}`;
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$/.exec(line);
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (help) helped.add(help[1]!);
    else if (type) {
      if (types.has(type[1]!)) throw new Error(`${where}: second TYPE`);
      types.set(type[1]!, type[2]!);
    } else {
      const sample = SAMPLE.exec(line);
      if (!sample) throw new Error(`${where}: not a sample`);
      const name = sample[1]!;
      if (!types.has(name) || !helped.has(name)) throw new Error(`${where}: ${name} has no HELP and TYPE before it`);
      const value = sample[4] === '+Inf' ? Infinity : sample[4] === '-Inf' ? -Infinity : Number(sample[4]);
      if (sample[4] !== 'NaN' && Number.isNaN(value)) throw new Error(`${where}: value is not a number`);
      samples.push({ name, labels: parseLabels(sample[3] ?? '', where), value });
    }
  }
  return { types, samples };
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`${where}: bad labels at ${rest}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}
