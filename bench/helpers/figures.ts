/** The figure tables every bench prints: each figure beside its target, PASS or MISS. */

export interface Figure {
  what: string;
  value: string;
  target: string;
  /** null: context for the figure above it, with no target of its own. */
  pass: boolean | null;
}

export function table(figures: Figure[]): string {
  const width = (pick: (f: Figure) => string) => Math.max(...figures.map((f) => pick(f).length));
  const [w, v, t] = [width((f) => f.what), width((f) => f.value), width((f) => f.target)];
  return figures
    .map(
      (f) =>
        `  ${f.what.padEnd(w)}  ${f.value.padEnd(v)}  ${f.pass === null ? '' : `target ${f.target.padEnd(t)}  ${f.pass ? 'PASS' : 'MISS'}`}`.trimEnd() +
        '\n',
    )
    .join('');
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** kB as /proc reports them, in MB (10^6 bytes) as the targets are written. */
export const megabytes = (kb: number): string => `${((kb * 1024) / 1e6).toFixed(1)} MB`;

/**
 * One row of issue 36's table (bench/fleet.ts prints every bench module's `fleetRows()`): a
 * figure beside its floor, measured in the same run, and its target. `floor` and `ratio` are
 * '—' for a figure that has no floor.
 */
export interface FleetRow {
  figure: string;
  floor: string;
  now: string;
  ratio: string;
  target: string;
  met: boolean;
}

/** A bench module's rows for the fleet table. */
export type FleetRows = () => Promise<FleetRow[]>;

export function fleetTable(rows: FleetRow[]): string {
  const head: FleetRow = {
    figure: 'figure',
    floor: 'floor (same run)',
    now: 'now',
    ratio: 'ratio',
    target: 'target',
    met: true,
  };
  const cells = (r: FleetRow, met: string) => [r.figure, r.floor, r.now, r.ratio, r.target, met];
  const lines = [cells(head, ''), ...rows.map((r) => cells(r, r.met ? 'MET' : 'MISSED'))];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return lines.map((l) => `  ${l.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd() + '\n').join('');
}
