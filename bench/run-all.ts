import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm run bench`: every bench module beside this one, in name order, each through its exported
 * `main()`. Found by listing the compiled directory rather than by a fixed import list, so a new
 * bench joins without touching this file. A bench that throws is reported and the rest still
 * run; the exit code is the worst any of them returned. The host's load average opens and
 * closes the output: on a shared host the figures mean little without it.
 */

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function main(): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const benches = readdirSync(here)
    .filter((file) => file.endsWith('.js') && file !== 'run-all.js')
    .sort();
  let worst = 0;
  process.stdout.write(`load average at start (1, 5, 15 min): ${load()}\n\n`);
  for (const file of benches) {
    const started = performance.now();
    try {
      const bench = (await import(pathToFileURL(`${here}/${file}`).href)) as { main?: () => Promise<number> };
      if (typeof bench.main !== 'function') throw new Error('exports no main()');
      worst = Math.max(worst, await bench.main());
    } catch (error) {
      process.stdout.write(`${file}: failed: ${(error as Error).stack ?? String(error)}\n`);
      worst = Math.max(worst, 1);
    }
    process.stdout.write(`(${file} took ${((performance.now() - started) / 1000).toFixed(1)} s)\n\n`);
  }
  process.stdout.write(`load average at end (1, 5, 15 min): ${load()}\n`);
  return worst;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
