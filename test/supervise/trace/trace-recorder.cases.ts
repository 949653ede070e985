import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TraceRecorder } from '../../../lib/supervise/trace/trace-recorder.ts';
import { EventEmitter } from 'node:events';
import { parseTrace, type TraceEntry, type TraceSettings } from '../../../lib/core/session/trace.ts';
import { tracePasses } from '../../../lib/core/session/trace-passes.ts';
import { bornAt } from '../../../lib/core/process/process-info.ts';
import type { Adapter } from '../../../lib/core/adapters/agent-events.ts';
import { ReplayClock, SimulatedWorld } from '../../../lib/supervise/trace/simulated-world.ts';
import { StepRecords } from '../../../lib/supervise/records/step-records.ts';
import type { PassPorts } from '../../../lib/supervise/ports.ts';

/** Replay hands a pass its workspace answers in the order they were asked for: the trace keeps that order, whatever order git answers in. */
test('workspace answers are written in the order asked, each once it is in', async () => {
  const written: TraceEntry[] = [];
  const recorder = new TraceRecorder({ write: (entry) => written.push(entry) }, {} as TraceSettings, (text) => text, {
    monotonic: () => 0,
    wall: () => 0,
  });
  const answers: Array<(fingerprint: string) => void> = [];
  const workspace = () => new Promise<string | null>((resolve) => answers.push(resolve));
  const ports = recorder.ports({ workspace } as unknown as PassPorts, null);
  const first = ports.workspace!();
  const second = ports.workspace!();
  answers[1]!('second');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written.length, 0, 'the second waits for the first to be written');
  answers[0]!('first');
  assert.deepEqual([await first, await second], ['first', 'second']);
  assert.deepEqual(
    written.map((e) => e.type === 'workspace' && e.fingerprint),
    ['first', 'second'],
  );
});

/** What the observer reports is recorded whole: a field it adds (a run-queue wait) replays without a format change, and start times keep their clock. */
test("a poll is recorded with every field the observer gave, its start clock on the trace's clock, and replays with them", async () => {
  const written: TraceEntry[] = [];
  let now = 1000;
  const recorder = new TraceRecorder(
    { write: (entry) => written.push(entry) },
    {} as TraceSettings,
    (text) => text.replace('s3cret', '[redacted]'),
    { monotonic: () => now, wall: () => 0 },
  );
  const process = {
    pid: 7,
    ppid: 1,
    pgid: 7,
    sid: 7,
    startTime: 90,
    state: 'S',
    comm: 'sleep',
    cmdline: ['sleep', 's3cret'],
    cpuTicks: 1,
    ioBytes: 0,
    listening: false,
    runQueueWaitMs: 42,
  };
  const observation = {
    at: 1500.25,
    rootPid: 7,
    processes: [process],
    cgroupCpuMs: 12,
    startClock: { bootAt: -9000.5, ticksPerSecond: 100 },
  };
  const child = Object.assign(new EventEmitter(), { pid: 7, stdout: null, stderr: null });
  const ports = recorder.ports(
    {
      spawn: async () => ({ ok: true, child }),
      adapter: () => ({ name: 'generic' }),
      makeTree: () => ({
        observe: () => observation,
        terminate: async () => ({ killed: [7], survived: [], refused: null, skipped: [] }),
        stopAll: async () => {},
      }),
    } as unknown as PassPorts,
    null,
  );
  await ports.spawn(['sleep'], { cwd: '/', env: {}, stdin: 'null', runTag: 'x' });
  now = 2000;
  assert.equal(ports.makeTree(7, 'x').observe(), observation, 'the loop gets the observation itself');
  const parsed = parseTrace(written.map((entry) => JSON.stringify(entry)).join('\n'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  const [entry] = parsed.trace.events;
  assert.deepEqual(entry, {
    type: 'observation',
    at: 500.25,
    cgroupCpuMs: 12,
    startClock: { bootAt: -10000.5, ticksPerSecond: 100 },
    processes: [{ ...process, cmdline: ['sleep', '[redacted]'] }],
  });

  const clock = new ReplayClock(0);
  const [pass] = tracePasses(parsed.trace);
  const world = new SimulatedWorld(
    pass!,
    2,
    { name: 'generic' } as Adapter,
    clock,
    async () => {},
    new StepRecords(
      null,
      () => 0,
      () => 0,
    ),
  );
  const replayed = world.ports.makeTree(7, 'x').observe();
  assert.equal(clock.now, 500.25, 'the first tick reads the clock at its observation');
  assert.deepEqual(replayed, {
    at: 500.25,
    rootPid: 7,
    cgroupCpuMs: 12,
    startClock: { bootAt: -10000.5, ticksPerSecond: 100 },
    processes: [{ ...process, cmdline: ['sleep', '[redacted]'] }],
  });
  assert.equal(
    bornAt(replayed.processes[0]!, replayed),
    -10000.5 + 910,
    'the birth is placed from its start time, not at first sight',
  );
});
