import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TraceRecorder } from '../../../lib/supervise/trace/trace-recorder.ts';
import type { TraceEntry, TraceSettings } from '../../../lib/core/session/trace.ts';
import type { RunSessionPorts } from '../../../lib/supervise/ports.ts';

/** Replay hands a pass its workspace answers in the order they were asked for: the trace keeps that order, whatever order git answers in. */
test('workspace answers are written in the order asked, each once it is in', async () => {
  const written: TraceEntry[] = [];
  const recorder = new TraceRecorder({ write: (entry) => written.push(entry) }, {} as TraceSettings, (text) => text, { monotonic: () => 0, wall: () => 0 });
  const answers: Array<(fingerprint: string) => void> = [];
  const workspace = () => new Promise<string | null>((resolve) => answers.push(resolve));
  const ports = recorder.ports({ workspace } as unknown as RunSessionPorts, null);
  const first = ports.workspace!();
  const second = ports.workspace!();
  answers[1]!('second');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written.length, 0, 'the second waits for the first to be written');
  answers[0]!('first');
  assert.deepEqual([await first, await second], ['first', 'second']);
  assert.deepEqual(written.map((e) => e.type === 'workspace' && e.fingerprint), ['first', 'second']);
});
