import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { startHostNoise } from '../helpers/liveness-cases.ts';

const agent = join(repoRoot, 'dist', 'test', 'fixtures', 'edit-and-rerun.js');
const REPEATS = 10;
const AT_ONCE = 2;

// Issue 25: an agent that edited a file and reran the failing test 0.3 s later was interrupted
// for "no change to the workspace" (the fingerprint was cached for 5 s). Here it edits, waits
// 0.1–0.5 s and reruns, six times a run, ten runs under busy-host noise: never an incident.
async function fastEdits(t: { after(fn: () => void): void }, gaps: string) {
  const state = tempDir(t);
  const dir = join(state, 'repo');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const database = join(state, 'deadman.db');
  const result = await runDeadman(
    ['run', '--database', database, '--adapter', 'codex', '--poll', '200ms', '--', process.execPath, agent],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: state,
        NOTIFY_SOCKET: '',
        DEADMAN_CONFIG: '',
        GAPS_MS: gaps,
        RERUNS: '6',
      },
      cwd: dir,
    },
  );
  return { result, incidents: query<{ kind: string }>(database, 'SELECT kind FROM incidents').map((r) => r.kind) };
}

test(
  'an edit 0.1–0.5 s before each rerun of a failing test is a change: no REPEATED_FAILURE, no NO_PROGRESS, 10 runs out of 10',
  { timeout: 180_000 },
  async (t) => {
    t.after(startHostNoise());
    const gapSets = ['100', '300', '500', '100,500', '200,400'];
    const misses: string[] = [];
    for (let i = 0; i < REPEATS; i += AT_ONCE) {
      const batch = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, j) => gapSets[(i + j) % gapSets.length]!).map(async (gaps) => ({
          gaps,
          ...(await fastEdits(t, gaps)),
        })),
      );
      for (const { gaps, result, incidents } of batch) {
        if (result.code !== 0 || incidents.length > 0)
          misses.push(`gaps ${gaps} ms: exit ${result.code}, incidents [${incidents.join(' ')}]: ${result.stderr}`);
      }
    }
    assert.deepEqual(misses, []);
  },
);
