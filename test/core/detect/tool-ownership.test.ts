import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownerOf, runsCommand } from '../../../lib/core/detect/tool-ownership.ts';
import type { ProcessInfo } from '../../../lib/core/process/process-info.ts';

const proc = (cmdline: string[]): ProcessInfo => ({ pid: 200, ppid: 100, pgid: 200, sid: 200, startTime: 1, state: 'S', comm: cmdline[0] ?? '', cmdline, cpuTicks: 0, ioBytes: 0, listening: false });

test('runsCommand: the command itself, a shell\'s script, inside a wrapper; words exactly', () => {
  assert.ok(runsCommand(proc(['sleep', '600']), `/bin/bash -lc 'sleep 600'`), 'bash exec\'d the simple command away');
  assert.ok(runsCommand(proc(['/bin/bash', '-c', 'cd src && npm test']), `/bin/bash -lc 'cd src && npm test'`));
  assert.ok(runsCommand(proc(['python3', '-c', 'import time; time.sleep(600)']), `python3 -c "import time; time.sleep(600)"`), 'quotes compared loosely');
  assert.ok(runsCommand(proc(['/bin/bash', '-c', `source /x/snapshot.sh && eval 'sleep 600' < /dev/null && pwd -P >| /tmp/claude-1-cwd`]), 'sleep 600'), 'Claude\'s snapshot shell');
  assert.ok(runsCommand(proc(['codex-linux-sandbox', '--sandbox-policy-cwd', '/r', '--', '/bin/bash', '-lc', 'sleep 600']), `/bin/bash -lc 'sleep 600'`), 'Codex\'s sandbox');
  assert.ok(!runsCommand(proc(['sleep', '601']), 'sleep 60'), 'sleep 60 is not sleep 601');
  assert.ok(!runsCommand(proc(['sleep', '601']), 'sleep 600'));
  assert.ok(runsCommand(proc(['/root/.pyenv/versions/3.11.7/bin/python3', '-c', 'pass']), `python3 -c 'pass'`), 'a shim\'s re-exec by full path');
  assert.ok(!runsCommand(proc(['/usr/bin/truex']), 'true'), 'a word is a whole word');
  assert.ok(!runsCommand(proc(['sleep', '600']), '   '), 'an empty command matches nothing');
});

test('ownerOf: command first, then birth after the call; a helper before the first call; ambiguous only with an unknown command', () => {
  const subtree = [proc(['sleep', '600'])];
  const shell = { toolId: 'a', startedAt: 5_000, command: 'sleep 600' };
  const mcp = { toolId: 'm', startedAt: 5_000, command: null };
  assert.deepEqual(ownerOf({ subtree, bornAt: 4_000, agentChild: true }, [shell], 4_500), { kind: 'tool', tool: shell, evidence: 'command' });
  assert.deepEqual(ownerOf({ subtree, bornAt: 4_000, agentChild: false }, [shell], 4_500), { kind: 'helper' }, 'a command match needs the agent as parent');
  assert.deepEqual(ownerOf({ subtree, bornAt: 5_001, agentChild: false }, [mcp], 5_000), { kind: 'tool', tool: mcp, evidence: 'spawned after the call' });
  assert.deepEqual(ownerOf({ subtree, bornAt: 4_999, agentChild: true }, [mcp], 5_000), { kind: 'helper' }, 'born before the first call');
  assert.equal(ownerOf({ subtree, bornAt: 4_000, agentChild: true }, [mcp], 1_000).kind, 'ambiguous', 'born after the first call, before an open call of unknown command');
  assert.deepEqual(ownerOf({ subtree, bornAt: 4_000, agentChild: true }, [{ ...shell, command: 'make' }], 1_000), { kind: 'helper' }, 'every open command known, none its own');
});
