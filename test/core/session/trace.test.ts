import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configSchema } from '../../../lib/core/config/config.ts';
import { parseTrace, traceEntrySchema } from '../../../lib/core/session/trace.ts';
import { traceSettings } from '../../../lib/core/session/trace-settings.ts';
import { tracePasses } from '../../../lib/core/session/trace-passes.ts';

const header = JSON.stringify({ type: 'header', version: 1, adapter: 'codex', root: 100, settings: { poll: 1000 } });
const observation = (at: number) =>
  JSON.stringify({
    type: 'observation',
    at,
    processes: [
      {
        pid: 100,
        ppid: 1,
        pgid: 100,
        sid: 100,
        startTime: 1,
        state: 'S',
        comm: 'node',
        cmdline: ['node'],
        cpuTicks: 0,
        ioBytes: null,
        listening: false,
      },
    ],
  });

test('a well-formed trace parses into its header and its events in order', () => {
  const parsed = parseTrace(
    [
      header,
      observation(0),
      JSON.stringify({ type: 'output', at: 5, stream: 'stdout', text: 'hi\n' }),
      JSON.stringify({ type: 'exit', at: 9, code: 0, signal: null }),
      '',
    ].join('\n'),
  );
  assert.ok(parsed.ok);
  assert.equal(parsed.trace.header.root, 100);
  assert.deepEqual(
    parsed.trace.events.map((e) => e.type),
    ['observation', 'output', 'exit'],
  );
});

test('each bad trace is refused with the line and what is wrong with it', () => {
  const problem = (text: string) => {
    const parsed = parseTrace(text);
    assert.equal(parsed.ok, false);
    return (parsed as { problem: string }).problem;
  };
  assert.equal(problem(`${header}\n{nope`), 'line 2 is not JSON');
  assert.match(problem(observation(0)), /first line must be the header/);
  assert.match(problem(`${header}\n${observation(5)}\n${observation(4)}`), /entry 3 is earlier than the one before it/);
  assert.match(
    problem(`${header}\n${JSON.stringify({ type: 'output', at: -1, stream: 'stdout', text: '' })}`),
    /^line 2: at: /,
  );
  assert.match(
    problem(`${header}\n${JSON.stringify({ type: 'output', at: 1, stream: 'stdin', text: '' })}`),
    /^line 2: stream: /,
  );
  assert.match(problem(`${header}\n${header}`), /only the first line may be a header/);
  assert.match(problem(header.replace('"poll":1000', '"pol":1000')), /^line 1: settings: /);
  assert.match(problem(header.replace('"version":1', '"version":3')), /^line 1: version: /);
  const v2 = header.replace('"version":1', '"version":2');
  assert.match(
    problem(`${v2}\n${JSON.stringify({ type: 'terminate', at: 1, result: { killed: [1] } })}`),
    /^line 2: result\.survived: /,
  );
  assert.match(
    problem(
      `${v2}\n${observation(1).replace('"processes"', '"startClock":{"bootAt":-5,"ticksPerSecond":0},"processes"')}`,
    ),
    /^line 2: startClock\.ticksPerSecond: /,
  );
});

test('a version 2 trace keeps microsecond times, the start clock, and whatever else the observer reported', () => {
  const v2 = header.replace('"version":1', '"version":2');
  const entry = observation(0.125)
    .replace('"listening":false', '"listening":false,"runQueueWaitMs":42')
    .replace('"processes"', '"cgroupCpuMs":null,"startClock":{"bootAt":-5000.5,"ticksPerSecond":100},"processes"');
  const parsed = parseTrace(
    [
      v2,
      entry,
      JSON.stringify({
        type: 'terminate',
        at: 2.5,
        result: { killed: [100], survived: [], refused: null, skipped: [] },
      }),
    ].join('\n'),
  );
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  const [observed, killed] = parsed.trace.events;
  assert.ok(observed?.type === 'observation' && killed?.type === 'terminate');
  assert.equal(observed.at, 0.125);
  assert.deepEqual(observed.startClock, { bootAt: -5000.5, ticksPerSecond: 100 });
  assert.equal(observed.cgroupCpuMs, null);
  assert.equal(observed.processes[0]!.runQueueWaitMs, 42);
  assert.deepEqual(killed.result.killed, [100]);
});

test('the settings a run records are the ones its header schema accepts, and read back to the same config values', () => {
  const config = configSchema.parse({
    poll: '250ms',
    hung_timeout: '2s',
    ready_pattern: 'listening',
    auto_recover: true,
  });
  const settings = traceSettings(config, 'withhold');
  const header = traceEntrySchema.parse({ type: 'header', version: 1, adapter: 'generic', root: 7, settings });
  assert.deepEqual(header.type === 'header' && header.settings, settings);
  assert.equal(settings.poll, 250);
  assert.equal(settings.hung_timeout, 2000);
  assert.equal(settings.ready_pattern, 'listening');
  assert.equal(settings.on_stall, 'withhold');
});

test("a trace of several passes is cut at each pass entry; the usage wait belongs to the pass it followed, each exit names its pass's adapter", () => {
  const entries = [
    header,
    observation(0),
    JSON.stringify({ type: 'workspace', at: 1, fingerprint: 'ab12' }),
    JSON.stringify({ type: 'exit', at: 9, code: 1, signal: null, adapter: 'claude' }),
    JSON.stringify({ type: 'usage_wait', at: 10, resume_at: 500 }),
    JSON.stringify({ type: 'pass', at: 501, root: 200, argv: ['claude', '--resume', 'x'], why: 'usage-limit' }),
    JSON.stringify({ type: 'exit', at: 600, code: 0, signal: null }),
  ];
  const parsed = parseTrace(entries.join('\n'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  const passes = tracePasses(parsed.trace);
  assert.deepEqual(
    passes.map((p) => [
      p.root,
      p.started?.why ?? null,
      p.adapter,
      p.usageWait?.resume_at ?? null,
      p.events.map((e) => e.type).join(','),
    ]),
    [
      [100, null, 'claude', 500, 'observation,workspace,exit'],
      [200, 'usage-limit', 'codex', null, 'exit'],
    ],
  );
  const problem = parseTrace(`${header}\n${JSON.stringify({ type: 'pass', at: 1, root: 2, argv: [], why: 'again' })}`);
  assert.ok(!problem.ok && /^line 2: why: /.test(problem.problem));
});
