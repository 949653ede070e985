import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, waitFor } from '../../helpers/cli.ts';
import { claudeCommand } from './agent-command.ts';
import type { ModelServer } from './model-server.ts';

/**
 * The interactive Claude Code (no -p) under `deadman agent`, in a terminal of a private tmux
 * server: tmux is the person's terminal (deadman keeps a revive marker only with a terminal on
 * stdin), `deadman agent` makes the agent's own pseudo-terminal inside it. deadman and the agent
 * run in the model server's namespace; deadman's journal lines go to `dir/deadman.err` and its
 * exit code to `dir/deadman.code`. The first-run dialogs are passed the way Claude Code records
 * them as done: `~/.claude.json` with onboarding completed and the work directory trusted.
 */

export interface Tui {
  /** What the terminal shows now. */
  screen(): string;
  /** Types `text` into the prompt and submits it. */
  submit(text: string): void;
  /** deadman's stderr so far. */
  deadmanLines(): string;
  /** deadman's exit code once it ended, else null. */
  exitCode(): number | null;
  /** Ends the agent as its person would (`/exit`). */
  quit(): void;
}

export interface TuiOptions {
  /** Claude Code's `autoContinueAtUsageLimit` user setting ("Continue automatically at usage limit"). */
  autoContinue: boolean;
  /** The deadman.toml the run reads. */
  config: string;
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

function claudeHome(home: string, work: string, autoContinue: boolean): void {
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      numStartups: 5,
      projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoContinueAtUsageLimit: autoContinue }));
}

export function startTui(
  t: { after(fn: () => void): void },
  server: ModelServer,
  dir: string,
  options: TuiOptions,
): Tui {
  // Logged in with a subscription: only then does Claude Code read the limit's reset (and continue at it).
  const agent = claudeCommand(dir, server.url, '', { subscription: true });
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  claudeHome(agent.env.HOME!, work, options.autoContinue);
  const [file, argv] = server.inside(process.execPath, [
    deadmanBin,
    'agent',
    '--config',
    options.config,
    '--poll',
    '250ms',
    '--',
    agent.argv[0]!,
  ]);
  const env = { ...agent.env, TERM: 'xterm-256color' };
  const err = join(dir, 'deadman.err');
  const code = join(dir, 'deadman.code');
  const exports = Object.entries(env)
    .map(([key, value]) => `export ${key}=${quote(value)}`)
    .join('\n');
  const run = join(dir, 'terminal.sh');
  writeFileSync(
    run,
    `${exports}\ncd ${quote(work)}\n${[file, ...argv].map(quote).join(' ')} 2>${quote(err)}\necho $? >${quote(code)}\nexec sleep 600\n`,
  );
  const socket = join(dir, 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-x', '120', '-y', '40', 'sh', run);
  if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr}`);
  // By its pid: the test's directory, the socket in it, may be gone before this runs.
  const tmuxPid = Number(tmux('display-message', '-p', '#{pid}').stdout);
  t.after(() => {
    try {
      process.kill(tmuxPid, 'SIGTERM');
    } catch {
      // ended already
    }
  });
  return {
    screen: () => tmux('capture-pane', '-p').stdout,
    submit: (text) => {
      tmux('send-keys', '-l', text);
      tmux('send-keys', 'Enter');
    },
    deadmanLines: () => (existsSync(err) ? readFileSync(err, 'utf8') : ''),
    exitCode: () =>
      existsSync(code) && readFileSync(code, 'utf8').trim() !== '' ? Number(readFileSync(code, 'utf8')) : null,
    quit: () => {
      tmux('send-keys', 'Escape');
      tmux('send-keys', '-l', '/exit');
      tmux('send-keys', 'Enter');
    },
  };
}

/** Waits until Claude Code's prompt box is up (its first screen drawn, no dialog in front). */
export async function promptReady(tui: Tui, timeoutMs: number): Promise<void> {
  // The empty prompt line is drawn with a no-break space after the arrow.
  await waitFor(() => /^❯\s*$/m.test(tui.screen()) || undefined, timeoutMs, "Claude Code's prompt").catch(
    (error: Error) => Promise.reject(new Error(`${error.message}; the screen:\n${tui.screen()}`)),
  );
}
