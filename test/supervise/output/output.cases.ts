import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGenericAdapter } from '../../../lib/core/adapters/generic.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { MAX_OPEN_TOOLS, MAX_PENDING_ATTEMPTS, OutputTracker } from '../../../lib/supervise/output/output.ts';
import { RunRecords } from '../../../lib/supervise/records/records.ts';
import { createRedactor } from '../../../lib/core/redact/redact.ts';
import { PLANTED, PLANTED_KEY_BLOCK, PLANTED_TEXT } from '../../helpers/planted-secrets.ts';

const tracker = () => {
  const adapter = createGenericAdapter();
  return new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
};
const bytes = (text: string) => Buffer.from(text);

test('the last lines come from a 16 KiB ring, across chunk and wrap boundaries, and the chunk may be freed after', () => {
  const output = tracker();
  const chunks = Array.from({ length: 400 }, (_, i) => bytes(`line ${i} ${'x'.repeat(i % 90)}\n`));
  for (const [i, chunk] of chunks.entries()) {
    output.chunk(chunk, i);
    chunk.fill(0); // what freeing the chunk would do to a view
  }
  const last = output.lastLines();
  assert.equal(last.length, 20);
  assert.match(last.at(-1)!, /^line 399 x+$/);
  assert.match(last[0]!, /^line 380 /);
  assert.equal(output.state.lastOutputAt, 399);
});

test('one chunk larger than the ring keeps only its end; an unterminated line is kept', () => {
  const output = tracker();
  output.chunk(bytes(`${'a'.repeat(40_000)}\nfirst\nsecond`), 1);
  assert.deepEqual(output.lastLines().slice(-2), ['first', 'second']);
});

test('once the ring has wrapped, its first line (the end of one whose start is gone, maybe inside a secret) is not among the last lines', () => {
  const output = tracker();
  output.chunk(bytes(`mytool --password ${'h'.repeat(16 * 1024 - 30)}unterX9 --verbose\nnext\n`), 1);
  assert.deepEqual(output.lastLines(), ['next']);
});

test('a line cut at 500 characters leaves no piece of a secret the cut split: redacted downstream, none survives', () => {
  const redactor = createRedactor({ env: { MY_SERVICE_TOKEN: PLANTED.envSecret } });
  const pieces = Object.values(PLANTED).flatMap((secret) =>
    Array.from({ length: secret.length - 5 }, (_, at) => secret.slice(at, at + 6)),
  );
  const leaks: string[] = [];
  // One line at a time: a key block's lines are told as such only together (hideKeyBlockLines has its own test).
  for (const line of PLANTED_TEXT.split('\n').filter((text) => !PLANTED_KEY_BLOCK.includes(text))) {
    const around = Object.values(PLANTED).reduce((text, secret) => text.split(secret).join(' '), line);
    const secretPieces = pieces.filter((piece) => !around.includes(piece));
    // Every position of the cut inside the line, after a long harmless start.
    for (let filler = 500 - line.length; filler <= 500; filler++) {
      const output = tracker();
      output.chunk(bytes(`${'.'.repeat(filler)}${line}\n`), 1);
      const kept = redactor.text(output.lastLines().join('\n'));
      leaks.push(
        ...secretPieces
          .filter((piece) => kept.includes(piece))
          .map((piece) => `${piece} at cut ${500 - filler} of: ${line}`),
      );
    }
  }
  assert.deepEqual(leaks.slice(0, 5), []);
});

test('a long line keeps its first 500 characters whole when the cut falls between words', () => {
  const output = tracker();
  output.chunk(bytes(`${'w'.repeat(499)} tail\n`), 1);
  assert.equal(output.lastLines()[0], `${'w'.repeat(499)} …`);
  const cutInWord = tracker();
  cutInWord.chunk(bytes(`${'w'.repeat(490)} ${'v'.repeat(20)}\n`), 1);
  assert.equal(cutInWord.lastLines()[0], `${'w'.repeat(490)} …`);
});

test('tool starts that never finish are tracked up to a bound, the oldest kept; finishing one makes room', () => {
  const adapter = createCodexAdapter();
  const output = new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
  const started = (id: number) =>
    JSON.stringify({ type: 'item.started', item: { id: `t${id}`, type: 'command_execution', command: `run ${id}` } });
  for (let id = 0; id < MAX_OPEN_TOOLS + 10; id++) output.line('stdout', { text: started(id), truncated: false }, id);
  assert.equal(output.state.openTools.size, MAX_OPEN_TOOLS);
  assert.ok(output.state.openTools.has('t0') && !output.state.openTools.has(`t${MAX_OPEN_TOOLS}`));
  const finished = JSON.stringify({
    type: 'item.completed',
    item: {
      id: 't0',
      type: 'command_execution',
      command: 'run 0',
      exit_code: 1,
      status: 'failed',
      aggregated_output: 'boom',
    },
  });
  output.line('stdout', { text: finished, truncated: false }, 5000);
  assert.deepEqual(
    output.state.toolResults.map((a) => [a.command, a.exitCode, a.outputTail]),
    [['run 0', 1, 'boom']],
  );
  output.line('stdout', { text: started(99_999), truncated: false }, 5001);
  assert.equal(output.state.openTools.get('t99999'), 5001);
});

test('a turn that ends forgets the tool calls it left open, their commands too: none piles up over turns', () => {
  const adapter = createCodexAdapter();
  const output = new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
  for (let turn = 0; turn < 3; turn++) {
    const started = {
      type: 'item.started',
      item: { id: `t${turn}`, type: 'command_execution', command: `make ${turn}` },
    };
    output.line('stdout', { text: JSON.stringify(started), truncated: false }, turn);
    const ended =
      turn === 2
        ? { type: 'turn.failed', error: { message: 'stream error' } }
        : { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } };
    output.line('stdout', { text: JSON.stringify(ended), truncated: false }, turn);
    assert.deepEqual([output.state.openTools.size, output.state.openToolCommands.size], [0, 0], `after turn ${turn}`);
  }
});

test('tool results waiting for the supervisor are bounded: the older half goes, and the loss is counted', () => {
  const adapter = createCodexAdapter();
  const output = new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
  for (let id = 0; id <= MAX_PENDING_ATTEMPTS; id++) {
    const item = {
      id: `t${id}`,
      type: 'command_execution',
      command: 'make',
      exit_code: 0,
      status: 'completed',
      aggregated_output: `ok ${id}`,
    };
    output.line('stdout', { text: JSON.stringify({ type: 'item.started', item }), truncated: false }, id);
    output.line('stdout', { text: JSON.stringify({ type: 'item.completed', item }), truncated: false }, id);
  }
  assert.equal(output.state.toolResultsLost, MAX_PENDING_ATTEMPTS / 2);
  assert.equal(output.state.toolResults.length, MAX_PENDING_ATTEMPTS / 2 + 1);
  assert.equal(output.state.toolResults.at(-1)!.outputTail, `ok ${MAX_PENDING_ATTEMPTS}`);
  assert.equal(output.state.history.length, 50);
});

test('an attempt carries the fingerprint asked for when it ended; one still waiting for git holds back those after it', async () => {
  const adapter = createCodexAdapter();
  const answers: Array<(fingerprint: string) => void> = [];
  const workspace = () => new Promise<string | null>((resolve) => answers.push(resolve));
  const output = new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {}, workspace });
  for (const id of [1, 2]) {
    const item = {
      id: `t${id}`,
      type: 'command_execution',
      command: `make ${id}`,
      exit_code: 1,
      status: 'failed',
      aggregated_output: 'boom',
    };
    output.line('stdout', { text: JSON.stringify({ type: 'item.started', item }), truncated: false }, id);
    output.line('stdout', { text: JSON.stringify({ type: 'item.completed', item }), truncated: false }, id);
  }
  assert.equal(answers.length, 2, 'git was started at each tool end');
  answers[1]!('w2');
  await Promise.resolve();
  assert.deepEqual(output.takeAttempts(), [], 'the second waits for the first');
  const settled = output.fingerprinted();
  answers[0]!('w1');
  await settled;
  assert.deepEqual(
    output.takeAttempts().map((a) => [a.command, a.workspace]),
    [
      ['make 1', 'w1'],
      ['make 2', 'w2'],
    ],
  );
});

// Issue 32: a process the agent spawned between its previous output and a call's event may be that call's.
test('each open tool call keeps its window: from the output before its event; closed calls forget it', () => {
  const adapter = createCodexAdapter();
  const output = new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
  const started = (id: string) =>
    JSON.stringify({
      type: 'item.started',
      item: { id, type: 'command_execution', command: `/bin/bash -lc 'make'`, status: 'in_progress' },
    });
  output.line('stdout', { text: JSON.stringify({ type: 'turn.started' }), truncated: false }, 1_000);
  output.line('stderr', { text: 'a warning on stderr is no output of an agent', truncated: false }, 1_500);
  output.line('stdout', { text: started('item_1'), truncated: false }, 2_000);
  output.line('stdout', { text: started('item_2'), truncated: false }, 2_100);
  assert.deepEqual(
    [...output.state.openToolWindows],
    [
      ['item_1', 1_000],
      ['item_2', 2_000],
    ],
  );
  output.line(
    'stdout',
    {
      text: JSON.stringify({
        type: 'item.completed',
        item: {
          id: 'item_1',
          type: 'command_execution',
          command: 'make',
          exit_code: 0,
          status: 'completed',
          aggregated_output: '',
        },
      }),
      truncated: false,
    },
    2_200,
  );
  assert.deepEqual([...output.state.openToolWindows.keys()], ['item_2']);
});
