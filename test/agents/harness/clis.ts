import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/cli.ts';

/**
 * Where test/agents/install-clis.sh put the pinned agent CLIs, and the native binary of each
 * (Codex's vendor binary, Claude Code's platform package), run directly.
 */

export type Cli = 'codex' | 'claude';

export const PACKAGES: Record<Cli, string> = { codex: '@openai/codex', claude: '@anthropic-ai/claude-code' };

export function pinnedVersions(): Record<string, string> {
  return JSON.parse(readFileSync(join(repoRoot, 'test', 'agents', 'clis.json'), 'utf8')) as Record<string, string>;
}

function cacheDir(): string {
  return (
    process.env.DEADMAN_AGENTS_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'deadman', 'agents')
  );
}

const ARCH: Record<string, { npm: string; triple: string }> = {
  x64: { npm: 'x64', triple: 'x86_64-unknown-linux-musl' },
  arm64: { npm: 'arm64', triple: 'aarch64-unknown-linux-musl' },
};

/** The binary's candidate paths inside the installed package tree, in the order they are tried. */
function candidates(cli: Cli, modules: string): string[] {
  const arch = ARCH[process.arch];
  if (!arch) return [];
  if (cli === 'codex')
    return [join(modules, '@openai', `codex-linux-${arch.npm}`, 'vendor', arch.triple, 'bin', 'codex')];
  return ['', '-musl'].map((libc) => join(modules, '@anthropic-ai', `claude-code-linux-${arch.npm}${libc}`, 'claude'));
}

/** The pinned CLI's binary, or null when it is not installed (run test/agents/install-clis.sh). */
export function cliBinary(cli: Cli): string | null {
  const spec = `${PACKAGES[cli]}@${pinnedVersions()[PACKAGES[cli]]}`;
  const modules = join(cacheDir(), spec.replaceAll('/', '+'), 'node_modules');
  return candidates(cli, modules).find((path) => existsSync(path)) ?? null;
}
