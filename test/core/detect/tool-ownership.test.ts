import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ownersOf, runsCommand, type OpenTool, type Suspect } from '../../../lib/core/detect/tool-ownership.ts';
import type { ProcessInfo } from '../../../lib/core/process/process-info.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const proc = (cmdline: string[], pid = 200): ProcessInfo => ({
  pid,
  ppid: 100,
  pgid: pid,
  sid: pid,
  startTime: 1,
  state: 'S',
  comm: cmdline[0] ?? '',
  cmdline,
  cpuTicks: 0,
  ioBytes: 0,
  listening: false,
});

test("runsCommand: the command itself, a shell's script, inside a wrapper; words exactly", () => {
  assert.ok(runsCommand(proc(['sleep', '600']), `/bin/bash -lc 'sleep 600'`), "bash exec'd the simple command away");
  assert.ok(runsCommand(proc(['/bin/bash', '-c', 'cd src && npm test']), `/bin/bash -lc 'cd src && npm test'`));
  assert.ok(runsCommand(proc(['make', 'test']), `cd x && make test`), 'the final command of a chain');
  assert.ok(
    runsCommand(proc(['make', 'test']), `/bin/bash -lc "cd x; make test || true"`),
    'any one simple command of the script',
  );
  assert.ok(
    runsCommand(proc(['python3', '-c', 'import time; time.sleep(600)']), `python3 -c "import time; time.sleep(600)"`),
    'another quoting of the same words',
  );
  assert.ok(
    runsCommand(proc(['make', '-j4']), `env CI=1 A='b c' make -j4`),
    'env execs the command after its assignments',
  );
  assert.ok(runsCommand(proc(['timeout', '60', 'make']), 'make'), 'at the end of a wrapper that forks');
  assert.ok(
    runsCommand(proc(['/bin/bash', '/w/run.sh', 'a b']), `./run.sh 'a b'`),
    'a script run by its #! interpreter, by its full path',
  );
  assert.ok(runsCommand(proc(['sed', 'x\ty']), `$'sed' $'x\\ty'`), "$'…' escapes");
  assert.ok(!runsCommand(proc(['sleep', '601']), 'sleep 60'), 'sleep 60 is not sleep 601');
  assert.ok(!runsCommand(proc(['sleep', '601']), 'sleep 600'));
  assert.ok(
    !runsCommand(proc(['python3', '-c', 'import time;time.sleep(600)']), `python3 -c 'import time; time.sleep(600)'`),
    "a word's spacing is part of it",
  );
  assert.ok(
    !runsCommand(proc(['/tmp/python3', '-c', 'pass']), `/usr/bin/python3 -c 'pass'`),
    'two different full paths',
  );
  assert.ok(
    runsCommand(proc(['/root/.pyenv/versions/3.11.7/bin/python3', '-c', 'pass']), `python3 -c 'pass'`),
    "a shim's re-exec by full path",
  );
  assert.ok(!runsCommand(proc(['/usr/bin/truex']), 'true'), 'a word is a whole word');
  assert.ok(!runsCommand(proc(['sleep', '600']), '   '), 'an empty command matches nothing');
  assert.ok(!runsCommand(proc(['sleep', '600']), `sleep '600`), 'a quote never closed: bash would not run it');
  assert.ok(
    !runsCommand(proc(['/bin/bash', '-c', 'cd /w && sleep 601']), 'cd /w && sleep 600'),
    'a builtin in common is no process in common',
  );
  assert.ok(runsCommand(proc(['sleep', '600']), 'sleep $N'), 'a word only the shell knows matches any one word');
});

test('runsCommand: every command string the real CLIs printed, against the processes that ran it', () => {
  const rows = readFileSync(fixturePath('agents/tool-commands.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { from: string; command: string; runs: string[][]; not: string[][] });
  for (const row of rows) {
    for (const argv of row.runs)
      assert.ok(runsCommand(proc(argv), row.command), `${row.from}: ${row.command} runs as ${JSON.stringify(argv)}`);
    for (const argv of row.not)
      assert.ok(!runsCommand(proc(argv), row.command), `${row.from}: ${row.command} is not ${JSON.stringify(argv)}`);
  }
});

const tool = (toolId: string, startedAt: number, command: string | null, windowFrom = startedAt): OpenTool => ({
  toolId,
  startedAt,
  windowFrom,
  command,
});
const suspect = (argv: string[], bornAt: number, agentChild = true): Suspect => ({
  subtree: [proc(argv)],
  bornAt,
  agentChild,
});

test('ownersOf: by command, by birth after the call, by birth alone in the window before the event', () => {
  const shell = tool('a', 5_000, 'sleep 600', 4_000);
  const sleep = suspect(['sleep', '600'], 4_500);
  assert.deepEqual(ownersOf([sleep], [shell], 5_000), [{ kind: 'tool', tool: shell, evidence: 'command' }]);
  assert.equal(
    ownersOf([{ ...sleep, agentChild: false }], [shell], 5_000)[0]!.kind,
    'unproven',
    'a command match needs the agent as parent',
  );
  const mcp = tool('m', 5_000, null);
  assert.deepEqual(ownersOf([suspect(['x'], 5_001, false)], [mcp], 5_000), [
    { kind: 'tool', tool: mcp, evidence: 'spawned after the call' },
  ]);
  // Codex spawns first, prints after; the event names another command (a shim, a wrapper, another quoting).
  const other = tool('c', 5_000, `/bin/bash -lc "make test"`, 4_000);
  assert.deepEqual(ownersOf([suspect(['python3', 'x.py'], 4_500)], [other], 4_000), [
    { kind: 'tool', tool: other, evidence: 'born in the window before its event' },
  ]);
});

test('ownersOf: nothing proves whose it is — said why, never a silent helper', () => {
  const other = tool('c', 5_000, `/bin/bash -lc "make test"`, 4_000);
  const two = ownersOf([suspect(['python3', 'x.py'], 4_500), suspect(['node', 'mcp.js'], 4_600)], [other], 4_000);
  assert.deepEqual(
    two.map((o) => o.kind),
    ['unproven', 'unproven'],
    'two candidates in the window: neither is proven',
  );
  assert.match(
    two[0]!.kind === 'unproven' ? two[0]!.why : '',
    /one of 2 processes the agent started in the window before tool call c's event/,
  );
  const helper = ownersOf([suspect(['node', 'mcp.js'], 1_000)], [other], 4_000)[0]!;
  assert.match(
    helper.kind === 'unproven' ? helper.why : '',
    /born before the run's first tool call \(the agent's own helper/,
  );
  const later = ownersOf([suspect(['node', 'watcher.js'], 3_000)], [tool('e', 5_000, null, 4_000)], 1_000)[0]!;
  assert.match(
    later.kind === 'unproven' ? later.why : '',
    /born before open tool call e, outside its window, and their commands are unknown/,
  );
  const busyNeighbour = ownersOf(
    [suspect(['sleep', '600'], 4_500), suspect(['python3', 'x.py'], 4_600)],
    [tool('a', 5_000, 'sleep 600', 4_000), other],
    4_000,
  );
  assert.deepEqual(
    busyNeighbour.map((o) => (o.kind === 'tool' ? `${o.tool.toolId} ${o.evidence}` : o.kind)),
    ['a command', 'c born in the window before its event'],
    "a process proven another call's by its command is no candidate in this call's window",
  );
});
