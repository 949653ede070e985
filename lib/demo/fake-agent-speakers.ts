import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  claudeLines,
  codexLines,
  lastRolloutTotal,
  limitInWords,
  rolloutLines,
  transcriptLine,
  type ToolEnd,
} from './fake-agent-lines.ts';

/**
 * How the fake agent (fake-agent.ts) speaks as Codex or as Claude Code: the lines each prints
 * on stdout and records in its session file at every step of a turn.
 */

export interface Invocation {
  resumeId: string | null;
  prompt: string;
  cwd: string;
  sandbox: string;
}

/** What one agent prints and records at each step of a turn. */
export interface Speaker {
  start(): void;
  toolStarted(command: string): void;
  toolEnded(command: string, end: ToolEnd): void;
  edited(path: string): void;
  finish(text: string, tokens?: number): void;
  interrupted(): void;
  /** `inWords`: Claude says it only in its text (no rate_limit_event). */
  usageLimit(resetsAt: number, inWords: boolean): void;
}

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

export function newSessionId(): string {
  const hex = Date.now().toString(16).padStart(12, '0') + '7' + randomBytes(10).toString('hex').slice(0, 19);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function codexSpeaker(id: string, run: Invocation, sessionDir: string | undefined): Speaker {
  const turn = newSessionId();
  const existing = sessionDir ? readdirSync(sessionDir).find((name) => name.endsWith(`-${id}.jsonl`)) : undefined;
  const file = sessionDir
    ? join(sessionDir, existing ?? `rollout-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`)
    : null;
  const record = (line: object) => file && appendFileSync(file, `${JSON.stringify(line)}\n`);
  const before =
    file && existing ? lastRolloutTotal(readFileSync(file, 'utf8').split('\n').filter(Boolean)) : undefined;
  return {
    start() {
      if (!existing) record(rolloutLines.sessionMeta(Date.now(), id, run.cwd));
      record(rolloutLines.taskStarted(Date.now(), turn));
      record(rolloutLines.turnContext(Date.now(), turn, run.cwd, run.sandbox));
      record(rolloutLines.userMessage(Date.now(), turn, run.prompt));
      print(codexLines.threadStarted(id));
      print(codexLines.turnStarted());
    },
    toolStarted: (command) => print(codexLines.commandStarted('item_1', command)),
    toolEnded: (command, end) => print(codexLines.commandCompleted('item_1', command, end)),
    edited: (path) =>
      ['started', 'completed'].forEach((phase) =>
        print(codexLines.fileChange(phase as 'started' | 'completed', 'item_0', path)),
      ),
    finish(text, tokens) {
      print(codexLines.agentMessage('item_2', text));
      const completed = codexLines.turnCompleted(tokens, before);
      print(completed);
      record(rolloutLines.tokenCount(Date.now(), completed.usage));
      record(rolloutLines.taskComplete(Date.now(), turn, text));
    },
    // Codex prints nothing on an interrupt; only the rollout tells.
    interrupted: () => record(rolloutLines.turnAborted(Date.now(), turn)),
    usageLimit(resetsAt) {
      const now = Math.floor(Date.now() / 1000);
      print(codexLines.usageLimitError(resetsAt, now));
      print(codexLines.usageLimitFailed(resetsAt, now));
    },
  };
}

export function claudeSpeaker(id: string, run: Invocation, sessionDir: string | undefined): Speaker {
  const file = sessionDir ? join(sessionDir, `${id}.jsonl`) : null;
  const record = (line: { type: string; message?: object }, extra: object = {}) =>
    file && appendFileSync(file, `${JSON.stringify(transcriptLine(line, id, run.cwd, Date.now(), extra))}\n`);
  const say = (line: { type: string; message?: object }) => {
    print(line);
    record(line);
  };
  return {
    start() {
      record({ type: 'user', message: { role: 'user', content: run.prompt } }, { permissionMode: 'default' });
      print(claudeLines.init(id, run.cwd));
    },
    toolStarted(command) {
      say(claudeLines.toolUse(id, 'toolu_1', command));
      print(claudeLines.taskStarted(id, 'toolu_1'));
    },
    toolEnded: (_command, end) => say(claudeLines.toolResult(id, 'toolu_1', end)),
    edited(path) {
      say(claudeLines.edit(id, 'toolu_0', path));
      say(claudeLines.toolResult(id, 'toolu_0', { exitCode: 0, output: `The file ${path} has been updated.` }));
    },
    finish(text) {
      say(claudeLines.text(id, text));
      print(claudeLines.result(id, true, text));
    },
    interrupted() {
      say(
        claudeLines.toolResult(id, 'toolu_1', {
          exitCode: 130,
          output: "The user doesn't want to proceed with this tool use.",
        }),
      );
      say(claudeLines.interrupted(id));
      print(claudeLines.result(id, false, ''));
    },
    usageLimit(resetsAt, inWords) {
      if (!inWords) print(claudeLines.rateLimitRejected(id, resetsAt));
      const text = inWords
        ? process.env.FAKE_AGENT_LIMIT_TEXT || limitInWords(resetsAt, 'Asia/Kolkata')
        : `You've hit your limit · resets ${new Date(resetsAt * 1000).toISOString().slice(11, 16)} (UTC)`;
      say(claudeLines.text(id, text));
      print({ ...claudeLines.result(id, true, text), is_error: true });
    },
  };
}
