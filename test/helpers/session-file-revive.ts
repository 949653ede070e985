import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviveMessage } from '../../lib/core/revive/resume-argv.ts';
import { rolloutLines } from '../../lib/demo/fake-agent-lines.ts';
import { fakeAgent } from './fake-agent.ts';

/**
 * A Codex session deadman did not start, known only from its rollout: under `root/codex`
 * ($CODEX_HOME), a turn cut off after one earlier revive prompt (so the file's own budget
 * count is 1), its last line a minute old. `root/bin/codex` is the fake agent, for PATH; it
 * appends its turns to the same rollout (FAKE_AGENT_SESSION_DIR), as Codex does.
 */
export function interruptedRollout(root: string, sessionId: string, cwd: string) {
  const codexHome = join(root, 'codex');
  const sessions = join(codexHome, 'sessions', '2026', '12', '01');
  mkdirSync(sessions, { recursive: true });
  const at = (minutesAgo: number) => Date.now() - minutesAgo * 60_000;
  const lines = [
    rolloutLines.sessionMeta(at(9), sessionId, cwd),
    rolloutLines.taskStarted(at(9), 'turn-1'),
    rolloutLines.turnContext(at(9), 'turn-1', cwd, 'workspace-write'),
    rolloutLines.userMessage(at(9), 'turn-1', 'write the report'),
    rolloutLines.taskStarted(at(5), 'turn-2'),
    rolloutLines.userMessage(at(5), 'turn-2', reviveMessage('write the report')),
    rolloutLines.taskStarted(at(1), 'turn-3'),
  ];
  writeFileSync(
    join(sessions, `rollout-2026-12-01T08-00-00-${sessionId}.jsonl`),
    lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
  );
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'codex'), `#!/bin/sh\nexec '${process.execPath}' '${fakeAgent}' codex "$@"\n`);
  chmodSync(join(bin, 'codex'), 0o755);
  return {
    codexHome,
    name: `codex-${sessionId}`,
    toml: `session_files = ["codex"]\ncodex_home = ${JSON.stringify(codexHome)}\n`,
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, FAKE_AGENT_SESSION_DIR: sessions },
  };
}
