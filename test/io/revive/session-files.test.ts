import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSessionFiles, sessionDirs } from '../../../lib/io/revive/session-files.ts';
import { selectInterrupted } from '../../../lib/core/revive/session-files.ts';
import { tempDir } from '../../helpers/cli.ts';
import { INTERRUPTED_FRESH, layOutSessions } from '../../helpers/session-fixtures.ts';

const HOUR = 3_600_000;

test('finds exactly the interrupted, fresh, root sessions among real-shaped files', (t) => {
  const now = Date.now();
  const dirs = layOutSessions(tempDir(t), now);
  mkdirSync(
    join(dirs.claudeConfigDir, 'projects', '-srv-exp-work', '3934d793-018c-4550-ad20-8de3cd3ead8e', 'subagents'),
    { recursive: true },
  );
  writeFileSync(join(dirs.claudeConfigDir, 'projects', '-srv-exp-work', 'notes.txt'), 'not a transcript');
  writeFileSync(join(dirs.codexHome, 'sessions', 'rollout-broken.jsonl'), '\u0000garbage\n{"type":');
  const found = findSessionFiles(['codex', 'claude'], dirs, now, HOUR);
  const selected = selectInterrupted(found, now, HOUR)
    .map((f) => f.finding.sessionId)
    .sort();
  assert.deepEqual(selected, [...INTERRUPTED_FRESH].sort());
  assert.ok(!found.some((f) => f.finding.sessionId.startsWith('749ff33f')), 'stale files are not even read');
  assert.deepEqual(
    findSessionFiles(['claude'], dirs, now, HOUR)
      .map((f) => f.finding.agent)
      .filter((a) => a !== 'claude'),
    [],
  );
});

test('missing directories find nothing; config and environment choose the directories', () => {
  assert.deepEqual(
    findSessionFiles(
      ['codex', 'claude'],
      { codexHome: '/nonexistent/c', claudeConfigDir: '/nonexistent/l' },
      Date.now(),
      HOUR,
    ),
    [],
  );
  const revive = { max_age: HOUR, max_revives: 5, delay: 0, start_timeout: 1000, session_files: [] };
  assert.deepEqual(sessionDirs(revive, {}, '/home/u'), {
    codexHome: '/home/u/.codex',
    claudeConfigDir: '/home/u/.claude',
  });
  assert.deepEqual(sessionDirs(revive, { CODEX_HOME: '/c', CLAUDE_CONFIG_DIR: '/l' }, '/home/u'), {
    codexHome: '/c',
    claudeConfigDir: '/l',
  });
  assert.deepEqual(
    sessionDirs({ ...revive, codex_home: '/cfg/c', claude_config_dir: '/cfg/l' }, { CODEX_HOME: '/c' }, '/home/u'),
    { codexHome: '/cfg/c', claudeConfigDir: '/cfg/l' },
  );
});
