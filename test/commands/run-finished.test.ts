import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

/**
 * FINISHED_NOT_EXITED end to end: a real fake agent prints its final result in the real
 * format and then idles without exiting; deadman stops it exit_grace later and exits 0.
 */

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');
const AGENTS = {
  claude: ['claude', '-p', 'task', '--output-format', 'stream-json', '--verbose'],
  codex: ['codex', 'exec', '--json', 'task'],
};

for (const [adapter, args] of Object.entries(AGENTS)) {
  test(`${adapter}: a result and no exit → stopped after exit_grace, exit 0, recorded as a resolved FINISHED_NOT_EXITED`, async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const host = measureHostDelay();
    const started = performance.now();
    const result = await runDeadman(
      [
        'run',
        '--database',
        database,
        '--adapter',
        adapter,
        '--exit-grace',
        '1s',
        '--poll',
        '200ms',
        '--stop-grace',
        '2s',
        '--',
        process.execPath,
        fakeAgent,
        ...args,
      ],
      {
        env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', FAKE_AGENT_SCENARIO: 'finish-no-exit' },
        cwd: dir,
      },
    );
    const tookMs = performance.now() - started;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /FINISHED_NOT_EXITED: the agent printed its final result \(success\)/);
    // The fake idles forever: only deadman's stop can have ended it, well before inactivity (30min).
    assert.ok(
      tookMs < host.scaled(30_000),
      `took ${Math.round(tookMs)}ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
    );
    const incidents = query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents');
    assert.deepEqual(
      incidents.map((r) => ({ ...r })),
      [{ kind: 'FINISHED_NOT_EXITED', state: 'RESOLVED' }],
    );
    assert.deepEqual(
      query<{ kind: string }>(database, 'SELECT kind FROM actions').map((r) => r.kind),
      ['END_FINISHED_RUN'],
    );
    const run = query<{ outcome: string; exit_code: number }>(database, 'SELECT outcome, exit_code FROM runs')[0]!;
    assert.deepEqual({ ...run }, { outcome: 'completed', exit_code: 0 });
  });
}
