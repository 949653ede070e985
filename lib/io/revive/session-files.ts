import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../core/config/config.ts';
import {
  readClaudeTranscript,
  readCodexRollout,
  type FoundSession,
  type IsReviveMessage,
  type SessionFinding,
} from '../../core/revive/session-files.ts';
import { namesIn } from '../files/quiet-reads.ts';

/**
 * Finds the agents' session files (`revive.session_files`): Codex
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, Claude
 * `<config dir>/projects/<escaped cwd>/<id>.jsonl`. Sub-agent transcripts live deeper
 * (`<id>/subagents/…`) and are not walked. Files not written within max_age are skipped
 * unread, so a years-long history costs one stat per file.
 */

const MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface SessionDirs {
  codexHome: string;
  claudeConfigDir: string;
}

export function sessionDirs(
  revive: Config['revive'],
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): SessionDirs {
  return {
    codexHome: revive.codex_home ?? (env.CODEX_HOME || join(home, '.codex')),
    claudeConfigDir: revive.claude_config_dir ?? (env.CLAUDE_CONFIG_DIR || join(home, '.claude')),
  };
}

export function findSessionFiles(
  agents: ReadonlyArray<'codex' | 'claude'>,
  dirs: SessionDirs,
  now: number,
  maxAgeMs: number,
  isRevive?: IsReviveMessage,
): FoundSession[] {
  const found: FoundSession[] = [];
  const visit = (path: string, read: (lines: string[], isRevive?: IsReviveMessage) => SessionFinding | null) => {
    const stat = statOrNull(path);
    if (stat === null || !stat.isFile() || stat.size > MAX_FILE_BYTES) return;
    if (maxAgeMs > 0 && now - stat.mtimeMs > maxAgeMs) return;
    const finding = read(readLines(path), isRevive);
    if (finding !== null) found.push({ finding, path, mtimeMs: stat.mtimeMs });
  };
  if (agents.includes('codex')) {
    for (const path of walk(join(dirs.codexHome, 'sessions'), 4)) {
      if (/^rollout-.*\.jsonl$/.test(path.slice(path.lastIndexOf('/') + 1))) visit(path, readCodexRollout);
    }
  }
  if (agents.includes('claude')) {
    for (const project of entries(join(dirs.claudeConfigDir, 'projects'))) {
      for (const file of entries(project)) if (file.endsWith('.jsonl')) visit(file, readClaudeTranscript);
    }
  }
  return found;
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function entries(dir: string): string[] {
  return namesIn(dir).map((name) => join(dir, name));
}

/** Files below `dir`, at most `depth` directories down. */
function walk(dir: string, depth: number): string[] {
  return entries(dir).flatMap((path) =>
    statOrNull(path)?.isDirectory() ? (depth > 0 ? walk(path, depth - 1) : []) : [path],
  );
}
