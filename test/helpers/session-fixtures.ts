import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath } from './fixtures.ts';

/** Sessions in test/fixtures/sessions/ that stand for old work (their files get an old mtime). */
export const STALE_SESSIONS = ['01a23013-0000-7e73-a729-00000000000a', '749ff33f-ad46-4300-ab98-18282fac6489'];
/**
 * The fixtures that are cut off, fresh and root: what a revive must find. Not among them: the
 * Codex SIGINT (turn_aborted) and Claude SIGINT ("[Request interrupted by user for tool use]")
 * sessions, which a person stopped.
 */
export const INTERRUPTED_FRESH = [
  '01a23013-d203-7e73-a729-ad3fd664d058', // Codex, SIGTERM: task_started, no task_complete
  '4178d872-bec3-4292-986e-d0becf3b5e5e', // Claude, SIGTERM: tool_use without a result
];

const DAY = 86_400_000;

/**
 * Lays the session fixtures out as the agents do, under `root/codex` ($CODEX_HOME) and
 * `root/claude` ($CLAUDE_CONFIG_DIR), with their timestamps moved so the last line is a
 * minute before `now` (three days before for the stale ones), and mtimes to match.
 */
export function layOutSessions(root: string, now: number): { codexHome: string; claudeConfigDir: string } {
  const codexHome = join(root, 'codex');
  const claudeConfigDir = join(root, 'claude');
  const codexDir = join(codexHome, 'sessions', '2026', '12', '01');
  const claudeDir = join(claudeConfigDir, 'projects', '-srv-exp-work');
  mkdirSync(codexDir, { recursive: true });
  mkdirSync(claudeDir, { recursive: true });
  for (const [from, to] of [
    ['codex', codexDir],
    ['claude', claudeDir],
  ] as const) {
    for (const name of readdirSync(fixturePath('sessions', from))) {
      const stale = STALE_SESSIONS.some((id) => name.includes(id));
      const lastAt = now - (stale ? 3 * DAY : 60_000);
      const target = join(to, name);
      writeFileSync(target, shiftTimestamps(readFileSync(fixturePath('sessions', from, name), 'utf8'), lastAt));
      utimesSync(target, new Date(lastAt), new Date(lastAt));
    }
  }
  return { codexHome, claudeConfigDir };
}

function shiftTimestamps(text: string, lastAt: number): string {
  const stamps = [...text.matchAll(/"timestamp":"([^"]+)"/g)].map((m) => Date.parse(m[1]!)).filter(Number.isFinite);
  const shift = lastAt - Math.max(...stamps);
  return text.replace(
    /"timestamp":"([^"]+)"/g,
    (_, iso: string) => `"timestamp":"${new Date(Date.parse(iso) + shift).toISOString()}"`,
  );
}
