import { spawn } from 'node:child_process';
import { shellExitCode } from '../io/process/exit-status.ts';
import type { ToolEnd } from './fake-agent-lines.ts';

/** Runs a tool command as the real agents do: bash in its own session, stdin closed. */
export function runTool(command: string, env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn('/bin/bash', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env, cwd });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-65536));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const ended = new Promise<ToolEnd>((resolve) =>
    child.on('close', (code, signal) => {
      resolve({ exitCode: shellExitCode(code, signal), output });
    }),
  );
  const started = new Promise<void>((resolve) => child.on('spawn', resolve));
  return { child, ended, started };
}

/** The scenario's tool, in Codex's order with $FAKE_AGENT_TOOL_EVENT_DELAY_MS (the command first, its event after), after the helper of $FAKE_AGENT_HELPER_LEAD_MS. */
export async function startTool(
  toolStarted: (command: string) => void,
  command: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
) {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const helperLeadMs = Number(process.env.FAKE_AGENT_HELPER_LEAD_MS ?? -1);
  if (helperLeadMs >= 0) await runTool('sleep 601', env, cwd).started.then(() => pause(helperLeadMs));
  const eventDelayMs = Number(process.env.FAKE_AGENT_TOOL_EVENT_DELAY_MS ?? 0);
  if (eventDelayMs <= 0) toolStarted(command);
  const tool = runTool(command, env, cwd);
  await tool.started;
  if (eventDelayMs > 0) await pause(eventDelayMs).then(() => toolStarted(command));
  return tool;
}
