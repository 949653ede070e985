import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';

/**
 * Output streams shaped like the real CLIs' (issue 36), built from the recordings copied into
 * test/fixtures/agents/recordings (Codex `exec --json`, Claude Code `stream-json`), so the
 * bench and the linearity test need nothing outside the repository:
 * - a long turn: one session and one turn whose tool and message lines (Codex's item lines,
 *   Claude's assistant and user lines) are the recorded ones over and over, each repetition's
 *   tool ids made its own, as one long agent turn writes them;
 * - many turns: the recordings one after the other, each its own session and turn, as a fleet
 *   of short `codex exec` / `claude -p` jobs under one supervisor would write them.
 */

export type RecordedAgent = 'codex' | 'claude';

export const RECORDINGS = new URL('../../../test/fixtures/agents/recordings/', import.meta.url).pathname;

/** Each recording of `agent`, as its lines, in name order. */
export function recordings(agent: RecordedAgent): string[][] {
  return readdirSync(RECORDINGS)
    .filter((name) => name.startsWith(`${agent}-`))
    .sort()
    .map((name) =>
      readFileSync(`${RECORDINGS}${name}`, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
}

/** The lines of one long turn: the session's opening, the recorded tool and message lines `repeats` times, the turn's end. */
export function longTurnLines(agent: RecordedAgent, repeats: number): string[] {
  const all = recordings(agent).flat();
  const type = (line: string) => (JSON.parse(line) as { type: string }).type;
  const body = all.filter((line) =>
    agent === 'codex' ? type(line).startsWith('item.') : ['assistant', 'user'].includes(type(line)),
  );
  const opening =
    agent === 'codex'
      ? [all.find((l) => type(l) === 'thread.started')!, '{"type":"turn.started"}']
      : [all.find((l) => type(l) === 'system')!];
  // A completed turn: an error result would leave the run's marker to be revived by the next run of the same name.
  const end = all.find((l) =>
    agent === 'codex'
      ? type(l) === 'turn.completed'
      : type(l) === 'result' && (JSON.parse(l) as { is_error?: boolean }).is_error === false,
  )!;
  const lines = [...opening];
  for (let n = 0; n < repeats; n++) lines.push(...body.map((line) => ownIds(line, n)));
  lines.push(end);
  return lines;
}

/** Tool ids of repetition `n`: `item_3` → `item_3_n`, `toolu_1` → `toolu_1_n` (an id reused within a turn would close another call). */
function ownIds(line: string, n: number): string {
  return line.replace(/"(item|toolu)_([A-Za-z0-9]+)"/g, `"$1_$2_${n}"`);
}

/** Every recording of `agent`, whole, `repeats` times over: one session and turn per recording. */
export function manyTurnLines(agent: RecordedAgent, repeats: number): string[] {
  const one = recordings(agent).flat();
  return Array.from({ length: repeats }, () => one).flat();
}

/** How many turns `manyTurnLines(agent, 1)` holds: one per recording. */
export const turnsPerRound = (agent: RecordedAgent): number => recordings(agent).length;

/**
 * Writes `lines(repeats)` to `path` with `repeats` grown until the file holds at least `bytes`
 * (found from one repetition's size, so the lines are built once); returns the repeats used.
 */
export function writeRecordedStream(path: string, lines: (repeats: number) => string[], bytes: number): number {
  const one = Buffer.byteLength(lines(1).join('\n'));
  const two = Buffer.byteLength(lines(2).join('\n'));
  const repeats = Math.max(1, Math.ceil((bytes - (2 * one - two)) / (two - one)));
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${lines(repeats).join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return repeats;
}
