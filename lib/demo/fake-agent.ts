import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeSpeaker, codexSpeaker, newSessionId, type Invocation, type Speaker } from './fake-agent-speakers.ts';
import { runTool, startTool } from './fake-agent-tools.ts';

/**
 * A small stand-in for Codex and Claude Code that speaks their real formats, for the demo and
 * the tests (no model, no network):
 *
 *   fake-agent.js codex exec --json [-s MODE] [-C DIR] [flags] [resume <id>] "<prompt>"
 *   fake-agent.js claude -p "<prompt>" [--resume <id>] --output-format stream-json --verbose
 *
 * $FAKE_AGENT_SCENARIO: complete (default; one `true` tool call, then the turn ends, exit 0),
 * hang-tool (the tool `sleep 600` hangs; once it is killed the turn still completes), silent
 * (after the opening lines: no output, no CPU, forever), crash (starts a tool, then SIGKILLs
 * itself), turn-then-crash (a session fed a second turn: the first completes, the second
 * starts a tool and SIGKILLs itself), finish-no-exit (completes the turn, prints its result, then idles forever without
 * exiting — Claude Code's known stream-json failure), usage-limit (a new session hits its usage
 * limit, resetting $FAKE_AGENT_LIMIT_RESET_S seconds from now (default 5), and exits 1; a resumed
 * one completes), usage-limit-text (the same, but Claude says so only in words: "You've hit
 * your limit · resets 7:35pm (Asia/Kolkata)", or $FAKE_AGENT_LIMIT_TEXT; or the lines of the file
 * $FAKE_AGENT_LIMIT_LINES, verbatim: a real CLI's recorded limit lines), repeat-failure (a new session runs the same failing test again and again, up to
 * $FAKE_AGENT_REPEATS times, 12 by default; a resumed one completes, or with $FAKE_AGENT_FAIL_RESUMED fails the same way again), over-budget (an edit of src/parser.ts, one failing test, then a turn of 50 000 tokens,
 * then 3 s before it exits; a prompt carrying a handoff completes). Codex's turn.completed
 * reports the thread's running total (from the rollout's token_count, so a resume counts on),
 * the turn adding $FAKE_AGENT_TURN_TOKENS input tokens (default 100); $FAKE_AGENT_LINGER_MS
 * holds the agent that long after its turn. Tools run under `/bin/bash -c` in a new session, like the real agents', with the
 * agents' session variable in their environment. $FAKE_AGENT_ARGV_LOG gets the argv as one
 * JSON line; $FAKE_AGENT_SESSION_ID fixes the id of a new session; $FAKE_AGENT_SESSION_DIR
 * gets a rollout / transcript file like the real ones; $FAKE_AGENT_TOOL replaces the scenario's
 * shell command (e.g. the python/sleep seed of the hung-descendant issue), and
 * $FAKE_AGENT_EVENT_COMMAND the command its events name (a shim or wrapper the real agents hide);
 * $FAKE_AGENT_TOOL_EVENT_DELAY_MS starts the tool that long before printing its event (Codex
 * spawns first); $FAKE_AGENT_HELPER_LEAD_MS starts a helper (`sleep 601`, its own session) that long
 * before the first tool call (an MCP server, a watcher). SIGINT aborts the turn as the real
 * agents do (exit 1); SIGTERM is not handled (exit 143).
 */

const SCENARIOS = [
  'complete',
  'hang-tool',
  'silent',
  'crash',
  'finish-no-exit',
  'usage-limit',
  'usage-limit-text',
  'repeat-failure',
  'over-budget',
  'turn-then-crash',
] as const;
type Scenario = (typeof SCENARIOS)[number];
/** Fails the same way each time; only the time in its output changes. */
const FAILING_TEST = 'echo "FAIL parser.test.ts: expected 2 to equal 3 at $(date +%s%N)"; exit 1';
const FAILING_TEST_LATER = 'echo "FAIL parser.test.ts: expected 2 to equal 3"; exit 1';
const TOOL_COMMAND: Record<Scenario, string> = {
  complete: 'true',
  'hang-tool': 'sleep 600',
  silent: 'true',
  crash: 'sleep 30',
  'finish-no-exit': 'true',
  'usage-limit': 'true',
  'usage-limit-text': 'true',
  'repeat-failure': 'true',
  'over-budget': FAILING_TEST_LATER,
  'turn-then-crash': 'true',
};

/** The usage-limit scenarios' first process: the speaker's limit lines, or a real CLI's recorded ones. */
function hitLimit(speaker: Speaker, inWords: boolean): void {
  if (process.env.FAKE_AGENT_LIMIT_LINES)
    process.stdout.write(readFileSync(process.env.FAKE_AGENT_LIMIT_LINES, 'utf8'));
  else speaker.usageLimit(Math.floor(Date.now() / 1000) + Number(process.env.FAKE_AGENT_LIMIT_RESET_S ?? 5), inWords);
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const valueAfter = (args: string[], ...flags: string[]) => {
  const at = args.findIndex((a) => flags.includes(a));
  return at >= 0 ? args[at + 1] : undefined;
};

function readInvocation(mode: 'codex' | 'claude', args: string[]): Invocation {
  const cwd = valueAfter(args, '-C', '--cd') ?? process.cwd();
  const sandbox = valueAfter(args, '-s', '--sandbox') ?? 'read-only';
  if (mode === 'codex') {
    if (args[0] !== 'exec' || !args.includes('--json')) fail('fake-agent: codex mode speaks only `exec --json`', 2);
    const resumeAt = args.indexOf('resume');
    return { resumeId: resumeAt >= 0 ? (args[resumeAt + 1] ?? null) : null, prompt: args.at(-1) ?? '', cwd, sandbox };
  }
  if (valueAfter(args, '--output-format') !== 'stream-json')
    fail('fake-agent: claude mode speaks only --output-format stream-json', 2);
  if (!args.includes('--verbose')) fail('Error: When using --print, --output-format=stream-json requires --verbose', 1);
  return {
    resumeId: valueAfter(args, '--resume', '-r') ?? null,
    prompt: valueAfter(args, '-p', '--print') ?? '',
    cwd,
    sandbox,
  };
}

/** The fake agent's invocation: which CLI it plays, the scenario, the session it speaks for. */
function startAgent() {
  const [mode, ...args] = process.argv.slice(2);
  if (mode !== 'codex' && mode !== 'claude')
    fail(
      'usage: fake-agent.js codex exec --json … | fake-agent.js claude -p … --output-format stream-json --verbose',
      2,
    );
  if (process.env.FAKE_AGENT_ARGV_LOG)
    appendFileSync(process.env.FAKE_AGENT_ARGV_LOG, `${JSON.stringify([mode, ...args])}\n`);
  const scenario = (process.env.FAKE_AGENT_SCENARIO || 'complete') as Scenario;
  if (!SCENARIOS.includes(scenario)) fail(`fake-agent: FAKE_AGENT_SCENARIO must be one of ${SCENARIOS.join(', ')}`, 2);
  const run = readInvocation(mode, args);
  const id = run.resumeId ?? (process.env.FAKE_AGENT_SESSION_ID || newSessionId());
  const speaker = (mode === 'codex' ? codexSpeaker : claudeSpeaker)(id, run, process.env.FAKE_AGENT_SESSION_DIR);
  const toolEnv = { ...process.env, [mode === 'codex' ? 'CODEX_THREAD_ID' : 'CLAUDE_CODE_SESSION_ID']: id };
  return { scenario, run, speaker, toolEnv };
}

async function main(): Promise<void> {
  const { scenario, run, speaker, toolEnv } = startAgent();
  speaker.start();
  if (scenario.startsWith('usage-limit') && run.resumeId === null) {
    hitLimit(speaker, scenario === 'usage-limit-text');
    process.exit(1);
  }
  let tool: ReturnType<typeof runTool> | null = null;
  process.on('SIGINT', () => {
    if (tool?.child.pid) process.kill(-tool.child.pid, 'SIGKILL');
    speaker.interrupted();
    process.exit(1);
  });
  const repeats = Number(process.env.FAKE_AGENT_REPEATS ?? 12);
  for (
    let i = 0;
    scenario === 'repeat-failure' && (run.resumeId === null || process.env.FAKE_AGENT_FAIL_RESUMED) && i < repeats;
    i += 1
  ) {
    speaker.toolStarted(FAILING_TEST);
    tool = runTool(FAILING_TEST, toolEnv, run.cwd);
    speaker.toolEnded(FAILING_TEST, await tool.ended);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const idleForever = () => setInterval(() => {}, 2 ** 31 - 1);
  if (scenario === 'silent') {
    idleForever();
    return;
  }
  if (scenario === 'over-budget') speaker.edited(join(run.cwd, 'src', 'parser.ts'));
  const command = process.env.FAKE_AGENT_TOOL || TOOL_COMMAND[scenario];
  const named = process.env.FAKE_AGENT_EVENT_COMMAND || command;
  tool = await startTool(() => speaker.toolStarted(named), command, toolEnv, run.cwd);
  if (scenario === 'crash') process.kill(process.pid, 'SIGKILL');
  speaker.toolEnded(named, await tool.ended);
  const overBudget = scenario === 'over-budget' && !run.prompt.includes('handoff');
  speaker.finish('done', overBudget ? 50_000 : Number(process.env.FAKE_AGENT_TURN_TOKENS ?? 100));
  if (process.env.FAKE_AGENT_LINGER_MS)
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.FAKE_AGENT_LINGER_MS)));
  if (scenario === 'turn-then-crash') {
    speaker.toolStarted(TOOL_COMMAND.crash);
    await runTool(TOOL_COMMAND.crash, toolEnv, run.cwd).started;
    process.kill(process.pid, 'SIGKILL');
  }
  if (overBudget) await new Promise((resolve) => setTimeout(resolve, 3_000));
  if (scenario === 'finish-no-exit') idleForever();
}

await main();
