import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fleetTable, type FleetRow, type FleetRows } from './helpers/figures.ts';

/**
 * What a fleet pays for deadman (issue 36), as one table: a probe, a resident, a start, a turn.
 * Every bench module beside this one that exports `fleetRows()` gives its rows, each figure
 * beside the floor it measured in the same run; found as run-all.ts finds `main()`, so a module
 * joins the table without touching this file. A module that throws is one row saying so, and
 * the others still print. The load average opens and closes it: on a shared host the figures
 * mean little without it. A missed target is reported, not failed, so it returns 0.
 */

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function fleetModules(): Promise<Array<{ file: string; rows: FleetRows }>> {
  const here = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(here)
    .filter((file) => file.endsWith('.js') && !['run-all.js', 'fleet.js'].includes(file))
    .sort();
  const found: Array<{ file: string; rows: FleetRows }> = [];
  for (const file of files) {
    const bench = (await import(pathToFileURL(`${here}/${file}`).href)) as { fleetRows?: FleetRows };
    if (typeof bench.fleetRows === 'function') found.push({ file, rows: bench.fleetRows });
  }
  return found;
}

export async function main(): Promise<number> {
  process.stdout.write(
    `fleet (issue 36): ${process.execPath} ${process.version}; load average at start (1, 5, 15 min): ${load()}\n`,
  );
  const rows: FleetRow[] = [];
  for (const { file, rows: of } of await fleetModules()) {
    const started = performance.now();
    try {
      rows.push(...(await of()));
    } catch (error) {
      rows.push({
        figure: `${file}: failed: ${(error as Error).message}`,
        floor: '—',
        now: '—',
        ratio: '—',
        target: '—',
        met: false,
      });
    }
    process.stdout.write(`  (${file}: ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  process.stdout.write(fleetTable(rows));
  process.stdout.write(`  load average at end (1, 5, 15 min): ${load()}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
