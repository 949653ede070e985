import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './cli.ts';
import { fixturePath } from './fixtures.ts';

/**
 * Every agent output line the project holds: the fixtures' transcripts and streams, the shipped
 * traces (with the output lines they replay) and, on a machine that has them, the real CLIs'
 * recordings. What the adapters' equivalence tests feed through both ways of reading a line.
 */

export interface CorpusFile {
  name: string;
  lines: string[];
}

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.jsonl'))
    .map((file) => join(dir, file));
}

/** A file's lines; for a trace, also the lines of the output it replays. */
function linesOf(file: string): string[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const output = lines.flatMap((line) => {
    const record = jsonOrNull(line) as { type?: unknown; text?: unknown } | null;
    return record?.type === 'output' && typeof record.text === 'string' ? record.text.split('\n') : [];
  });
  return [...lines, ...output.filter((line) => line !== '')];
}

/** The real CLI's recordings, on a machine that has them (the tests pass without). */
const RECORDINGS = '/work/shared/reference/agent-recordings';

export function agentLineCorpus(): CorpusFile[] {
  const recorded = existsSync(RECORDINGS) ? jsonlFiles(RECORDINGS) : [];
  return [...jsonlFiles(fixturePath()), ...jsonlFiles(join(repoRoot, 'contrib', 'traces')), ...recorded].map(
    (file) => ({
      name: file.startsWith(RECORDINGS) ? file : relative(repoRoot, file),
      lines: linesOf(file),
    }),
  );
}

/** The line's JSON value, or null for a line that is no JSON (a fixture's cut line). */
export function jsonOrNull(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return null;
  }
}
