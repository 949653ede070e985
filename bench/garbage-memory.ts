import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadmanBench } from './helpers/deadman-env.ts';
import { megabytes, table, type Figure } from './helpers/figures.ts';
import { passThrough } from './helpers/pass-through.ts';

/**
 * Bounded memory whatever the child prints (issue 23.5): deadman's peak RSS with each adapter
 * on a garbage corpus — 200 MB of random bytes, a million short lines, and one 100 MB line that
 * opens like a Codex tool event — beside the 150 MB target. A miss is reported, not failed.
 */

const MB = 1000 * 1000;
const TARGET_MB = 150;
const ADAPTERS = ['generic', 'codex', 'claude'];

/** Writes `pieces` in order, each made on demand so the corpus is never held whole. */
function writeCorpus(path: string, pieces: Iterable<Uint8Array | string>): number {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (const piece of pieces) written += typeof piece === 'string' ? writeSync(fd, piece) : writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
  return written;
}

function* randomBytes(total: number): Generator<Uint8Array> {
  const chunk = new Uint8Array(MB);
  for (let done = 0; done < total; done += chunk.length) yield randomFillSync(chunk);
}

function* shortLines(count: number): Generator<string> {
  for (let n = 0; n < count; n += 10_000) yield Array.from({ length: 10_000 }, (_, i) => `line ${n + i}\n`).join('');
}

function* singleLine(total: number): Generator<string> {
  yield '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","aggregated_output":"';
  const filler = 'x'.repeat(MB);
  for (let done = 0; done < total; done += MB) yield filler;
  yield '","exit_code":0,"status":"completed"}}\n';
}

export async function main(): Promise<number> {
  if (process.platform !== 'linux') {
    console.log(`garbage-memory: reads /proc, which needs Linux (this is ${process.platform})`);
    return 0;
  }
  const bench = deadmanBench('garbage');
  try {
    const corpora = {
      '200 MB of random bytes': writeCorpusFile(bench.dir, 'random', randomBytes(200 * MB)),
      '1 M short lines': writeCorpusFile(bench.dir, 'short-lines', shortLines(1_000_000)),
      'one 100 MB line': writeCorpusFile(bench.dir, 'single-line', singleLine(100 * MB)),
    };
    process.stdout.write(
      `garbage-memory: ${process.execPath} ${process.version}; deadman run --adapter … -- cat <corpus>\n`,
    );
    const figures: Figure[] = [];
    for (const [name, corpus] of Object.entries(corpora)) {
      for (const adapter of ADAPTERS) {
        const { peakKb, seconds } = await passThrough(adapter, corpus.file, corpus.bytes, bench);
        figures.push({
          what: `peak RSS, ${name}, --adapter ${adapter}`,
          value: `${megabytes(peakKb)} (${seconds.toFixed(1)} s)`,
          target: `< ${TARGET_MB} MB`,
          pass: peakKb * 1024 < TARGET_MB * MB,
        });
      }
    }
    process.stdout.write(table(figures));
    return 0;
  } finally {
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

function writeCorpusFile(
  dir: string,
  name: string,
  pieces: Iterable<Uint8Array | string>,
): { file: string; bytes: number } {
  const file = join(dir, `${name}.bin`);
  return { file, bytes: writeCorpus(file, pieces) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
