import { codexCommandLine } from '../core/shell/shell-quote.ts';

/**
 * The lines a fake agent prints and records, in the real formats (codex-cli 0.169
 * `exec --json` and its rollout; Claude Code 2.1.197 stream-json and its transcript), cut
 * down to the fields deadman reads; a command quoted as codex-cli 0.171 quotes it. One function per line kind; the fake agent strings
 * them together.
 */

export interface ToolEnd {
  exitCode: number;
  output: string;
}

export const codexLines = {
  threadStarted: (id: string) => ({ type: 'thread.started', thread_id: id }),
  turnStarted: () => ({ type: 'turn.started' }),
  commandStarted: (item: string, command: string) => ({
    type: 'item.started',
    item: {
      id: item,
      type: 'command_execution',
      command: codexCommandLine(command),
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    },
  }),
  commandCompleted: (item: string, command: string, end: ToolEnd) => ({
    type: 'item.completed',
    item: {
      id: item,
      type: 'command_execution',
      command: codexCommandLine(command),
      aggregated_output: end.output,
      exit_code: end.exitCode,
      status: end.exitCode === 0 ? 'completed' : 'failed',
    },
  }),
  fileChange: (phase: 'started' | 'completed', item: string, path: string) => ({
    type: `item.${phase}`,
    item: {
      id: item,
      type: 'file_change',
      changes: [{ path, kind: 'update' }],
      status: phase === 'started' ? 'in_progress' : 'completed',
    },
  }),
  agentMessage: (item: string, text: string) => ({
    type: 'item.completed',
    item: { id: item, type: 'agent_message', text },
  }),
  /** The usage-limit body as Codex passes the provider's error on: inside the message text. */
  usageLimitError: (resetsAt: number, now: number) => ({ type: 'error', message: usageLimitBody(resetsAt, now) }),
  usageLimitFailed: (resetsAt: number, now: number) => ({
    type: 'turn.failed',
    error: { message: usageLimitBody(resetsAt, now) },
  }),
  /** Codex's usage is the thread's running total: `before` is what earlier turns (earlier processes too) reported. */
  turnCompleted: (inputTokens = 100, before: CodexTotal = NO_TOKENS) => ({
    type: 'turn.completed',
    usage: turnTotal(inputTokens, before),
  }),
};

export interface CodexTotal {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
}

const NO_TOKENS: CodexTotal = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 };

export function turnTotal(inputTokens: number, before: CodexTotal) {
  return {
    input_tokens: before.input_tokens + inputTokens,
    cached_input_tokens: before.cached_input_tokens + 20,
    cache_write_input_tokens: 0,
    output_tokens: before.output_tokens + 10,
    reasoning_output_tokens: 0,
  };
}

function usageLimitBody(resetsAt: number, now: number): string {
  return JSON.stringify({
    error: {
      type: 'usage_limit_reached',
      message: 'The usage limit has been reached',
      plan_type: 'plus',
      resets_at: resetsAt,
      resets_in_seconds: Math.max(0, resetsAt - now),
    },
  });
}

/** Rollout lines: `{timestamp, type, payload}`; `at` is wall-clock ms. */
export const rolloutLines = {
  sessionMeta: (at: number, id: string, cwd: string) =>
    rollout(at, 'session_meta', {
      session_id: id,
      id,
      cwd,
      originator: 'codex_exec',
      cli_version: 'fake',
      source: 'exec',
      thread_source: 'user',
    }),
  taskStarted: (at: number, turn: string) => rollout(at, 'event_msg', { type: 'task_started', turn_id: turn }),
  turnContext: (at: number, turn: string, cwd: string, sandbox: string) =>
    rollout(at, 'turn_context', { turn_id: turn, cwd, model: 'fake-model', sandbox_policy: { type: sandbox } }),
  userMessage: (at: number, turn: string, text: string) =>
    rollout(at, 'event_msg', {
      type: 'item_completed',
      turn_id: turn,
      item: { type: 'UserMessage', content: [{ type: 'text', text }] },
    }),
  taskComplete: (at: number, turn: string, message: string) =>
    rollout(at, 'event_msg', { type: 'task_complete', turn_id: turn, last_agent_message: message }),
  turnAborted: (at: number, turn: string) =>
    rollout(at, 'event_msg', { type: 'turn_aborted', turn_id: turn, reason: 'interrupted' }),
  tokenCount: (at: number, total: CodexTotal) =>
    rollout(at, 'event_msg', { type: 'token_count', info: { total_token_usage: total } }),
};

/** The thread's last running total in a rollout (what a resumed Codex counts on from). */
export function lastRolloutTotal(lines: readonly string[]): CodexTotal {
  const counts = lines
    .map((line) => JSON.parse(line) as { payload?: { type?: string; info?: { total_token_usage?: CodexTotal } } })
    .filter((line) => line.payload?.type === 'token_count');
  return counts.at(-1)?.payload?.info?.total_token_usage ?? NO_TOKENS;
}

function rollout(at: number, type: string, payload: object) {
  return { timestamp: new Date(at).toISOString(), type, payload };
}

export const claudeLines = {
  init: (id: string, cwd: string) => ({
    type: 'system',
    subtype: 'init',
    cwd,
    session_id: id,
    tools: ['Bash'],
    model: 'fake-model',
    permissionMode: 'default',
    claude_code_version: 'fake',
  }),
  toolUse: (id: string, tool: string, command: string) =>
    assistant(id, [{ type: 'tool_use', id: tool, name: 'Bash', input: { command, description: 'fake tool call' } }]),
  edit: (id: string, tool: string, path: string) =>
    assistant(id, [
      { type: 'tool_use', id: tool, name: 'Edit', input: { file_path: path, old_string: '2', new_string: '3' } },
    ]),
  taskStarted: (id: string, tool: string) => ({
    type: 'system',
    subtype: 'task_started',
    task_id: `task_${tool}`,
    tool_use_id: tool,
    description: 'fake tool call',
    task_type: 'local_bash',
    session_id: id,
  }),
  toolResult: (id: string, tool: string, end: ToolEnd) => ({
    type: 'user',
    session_id: id,
    parent_tool_use_id: null,
    message: {
      role: 'user',
      content: [
        {
          tool_use_id: tool,
          type: 'tool_result',
          content: end.exitCode === 0 ? end.output : `Exit code ${end.exitCode}\n${end.output}`,
          is_error: end.exitCode !== 0,
        },
      ],
    },
  }),
  text: (id: string, text: string) => assistant(id, [{ type: 'text', text }]),
  rateLimitRejected: (id: string, resetsAt: number) => ({
    type: 'rate_limit_event',
    session_id: id,
    rate_limit_info: {
      status: 'rejected',
      resetsAt,
      rateLimitType: 'five_hour',
      overageStatus: 'rejected',
      isUsingOverage: false,
    },
  }),
  interrupted: (id: string) => ({
    type: 'user',
    session_id: id,
    message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
  }),
  result: (id: string, ok: boolean, text: string) => ({
    type: 'result',
    subtype: ok ? 'success' : 'error_during_execution',
    is_error: !ok,
    num_turns: 2,
    result: text,
    session_id: id,
    total_cost_usd: 0,
    usage: { input_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 20, output_tokens: 10 },
  }),
};

/** Claude's limit text: the reset as a 12-hour time in `timeZone`, minute precision. */
export function limitInWords(resetsAt: number, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true }).format(
    resetsAt * 1000,
  );
  return `You've hit your limit · resets ${time.replace(/\s/g, '').toLowerCase()} (${timeZone})`;
}

function assistant(id: string, content: object[]) {
  return {
    type: 'assistant',
    session_id: id,
    parent_tool_use_id: null,
    message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model: 'fake-model', content },
  };
}

/** Transcript lines add the envelope Claude writes to `projects/<cwd>/<id>.jsonl`. */
export function transcriptLine(
  line: { type: string; message?: object },
  id: string,
  cwd: string,
  at: number,
  extra: object = {},
) {
  return {
    type: line.type,
    message: line.message,
    isSidechain: false,
    sessionId: id,
    cwd,
    timestamp: new Date(at).toISOString(),
    ...extra,
  };
}
