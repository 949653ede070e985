import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

test('deadman demo runs its seven scenarios for real in under 30 s; report latest is JSON with a timeline', async (t) => {
  const database = join(tempDir(t), 'demo.db');
  const host = measureHostDelay();
  const started = performance.now();
  const demo = await runDeadman(['demo', '--database', database]);
  const elapsed = performance.now() - started;
  assert.equal(demo.code, 0, demo.stderr);
  assert.ok(
    elapsed < host.scaled(30_000),
    `demo took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  for (const expected of [
    /incident #\d+ HUNG_PROCESS → RESOLVED/,
    /killed pids \d+/,
    /EVIDENCE_FAILED \(green but dead\): export dead: export-today\.csv is 0 bytes/,
    /→ exit 65/,
    /revived session [\w-]+ \(1\/5\)/,
    /resumed with: codex exec --json -s workspace-write resume [\w-]+ "/,
    /OUTPUT_INACTIVITY: no codex output for 2s/,
    /→ exit 75/,
    /waiting for usage limit reset at \d\d:\d\d(:\d\d)? UTC/,
    /revived session [\w-]+ \(1\/5\)[\s\S]*USAGE_LIMIT → RESOLVED|USAGE_LIMIT → RESOLVED/,
    /FINISHED_NOT_EXITED: the agent printed its final result \(success\)/,
    /REPEATED_FAILURE: `.*parser\.test\.ts.*` failed the same way \d+ times/,
    /incident #\d+ REPEATED_FAILURE → RESOLVED/,
    /[67] incidents/,
  ])
    assert.match(demo.stdout, expected);

  const report = await runDeadman(['report', 'latest', '--json', '--database', database]);
  assert.equal(report.code, 0, report.stderr);
  const parsed = JSON.parse(report.stdout) as { timeline: Array<{ to: string }> };
  assert.ok(Array.isArray(parsed.timeline) && parsed.timeline.length >= 2, report.stdout);
});
