import type { Config } from './config.ts';

/**
 * Which diagnostician `[diagnose]` configures, resolved once: `rules` (deadman's own, the
 * default), `command` (argv; the packet on stdin, the answer on stdout), `openai` (an
 * OpenAI-compatible Chat Completions or Responses endpoint) or `anthropic` (the Messages API).
 * Without `diagnostician`, a `command` means the command. Pure.
 */
export type DiagnosticianChoice =
  | { kind: 'rules' }
  | { kind: 'command'; argv: string[] }
  | { kind: 'openai'; api: 'chat' | 'responses'; baseUrl: string; model: string; keyEnv: string }
  | { kind: 'anthropic'; baseUrl: string; model: string; keyEnv: string };

const DEFAULTS = {
  openai: { baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', keyEnv: 'ANTHROPIC_API_KEY' },
};

export function chooseDiagnostician(d: Config['diagnose']): DiagnosticianChoice {
  const kind = d.diagnostician ?? (d.command ? 'command' : 'rules');
  if (kind === 'rules') return { kind };
  // The schema refuses `command` without argv and a model API without a model.
  if (kind === 'command') return { kind, argv: d.command! };
  const endpoint = {
    baseUrl: (d.base_url ?? DEFAULTS[kind].baseUrl).replace(/\/+$/, ''),
    model: d.model!,
    keyEnv: d.api_key_env ?? DEFAULTS[kind].keyEnv,
  };
  return kind === 'openai' ? { kind, api: d.api, ...endpoint } : { kind, ...endpoint };
}

/** One line for `config check`: which diagnostician, and whether its key variable is set — never the key. */
export function describeDiagnostician(
  choice: DiagnosticianChoice,
  env: Readonly<Record<string, string | undefined>>,
): string {
  switch (choice.kind) {
    case 'rules':
      return "rules (deadman's own; no model is asked)";
    case 'command':
      return `command ${JSON.stringify(choice.argv)}`;
    case 'openai':
    case 'anthropic': {
      const api = choice.kind === 'openai' ? (choice.api === 'chat' ? 'Chat Completions' : 'Responses') : 'Messages';
      const key = env[choice.keyEnv] ? 'present' : 'MISSING (the rules will decide)';
      return `${choice.kind} ${api}, model ${choice.model} at ${choice.baseUrl}; key $${choice.keyEnv}: ${key}`;
    }
  }
}
