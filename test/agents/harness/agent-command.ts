import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBinary, type Cli } from './clis.ts';

/**
 * The command line and environment a person would use to run each real CLI headless against the
 * loopback model server, with every home the CLI writes to inside the test's directory.
 */

export interface AgentCommand {
  argv: string[];
  env: Record<string, string>;
}

export interface AgentOptions {
  /** Model requests the CLI retries by itself after an error (0: none, so a scenario scripts each retry it wants as its own turn). */
  retries?: number;
  /** Claude Code logged in with a subscription (an OAuth token) instead of an API key: only then does it read the unified rate-limit headers. */
  subscription?: boolean;
}

/** The environment shared by both CLIs: the test's own process env minus anything that points elsewhere. */
function baseEnv(dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value !== undefined &&
      !/^(OPENAI_|ANTHROPIC_|CODEX_|CLAUDE_|DEADMAN_|NOTIFY_SOCKET$|STATE_DIRECTORY$)/.test(key)
    )
      env[key] = value;
  }
  mkdirSync(join(dir, 'home'), { recursive: true });
  return { ...env, HOME: join(dir, 'home'), STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' };
}

/**
 * Codex: CODEX_HOME holds a config.toml whose provider is the loopback server, `wire_api =
 * "responses"`, with retries set explicitly (Codex 0.171 retries a 429 as a stream retry: both
 * counts are the same).
 */
export function codexCommand(
  dir: string,
  url: string,
  prompt: string,
  { retries = 0 }: AgentOptions = {},
): AgentCommand {
  const home = join(dir, 'codex-home');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "loopback"',
      '[model_providers.loopback]',
      'name = "loopback"',
      `base_url = "${url}/v1"`,
      'wire_api = "responses"',
      'env_key = "LOOPBACK_API_KEY"',
      `request_max_retries = ${retries}`,
      `stream_max_retries = ${retries}`,
      'stream_idle_timeout_ms = 300000',
      '',
    ].join('\n'),
  );
  return {
    argv: [cliBinary('codex')!, 'exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', prompt],
    env: { ...baseEnv(dir), CODEX_HOME: home, LOOPBACK_API_KEY: 'sk-loopback-test' },
  };
}

/** Claude Code: ANTHROPIC_BASE_URL and an API key, as root in a sandbox (IS_SANDBOX=1) without permission prompts. */
export function claudeCommand(
  dir: string,
  url: string,
  prompt: string,
  { retries = 0, subscription = false }: AgentOptions = {},
): AgentCommand {
  const login: Record<string, string> = subscription
    ? { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-loopback-test' }
    : { ANTHROPIC_API_KEY: 'sk-ant-loopback-test' };
  return {
    argv: [
      cliBinary('claude')!,
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
    ],
    env: {
      ...baseEnv(dir),
      ...login,
      ANTHROPIC_BASE_URL: url,
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_MAX_RETRIES: String(retries),
    },
  };
}

export function agentCommand(
  cli: Cli,
  dir: string,
  url: string,
  prompt: string,
  options: AgentOptions = {},
): AgentCommand {
  return cli === 'codex' ? codexCommand(dir, url, prompt, options) : claudeCommand(dir, url, prompt, options);
}
