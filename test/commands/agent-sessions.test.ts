import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runProgram, tempDir, waitFor, type Finished } from '../helpers/cli.ts';
import { startHostNoise } from '../helpers/liveness-cases.ts';
import { wholeJsonLines } from '../helpers/json-lines.ts';

/**
 * Issue 25: two `deadman agent` runs started about a second apart in one repository — the
 * second marker took the first run's session id, and its revive resumed the wrong session.
 * Here two or three fake interactive agents (each its own session, each writing its session
 * file every 100 ms, so the newest file keeps changing hands) start 0–2 s apart in one
 * repository under real pseudo-terminals; each marker must name its own agent's session, and
 * after a SIGKILL each command resumes its own. Ten rounds, Codex and Claude, under noise.
 */

const agentScript = join(repoRoot, 'dist', 'test', 'fixtures', 'resumable-agent.js');
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
const ROUNDS: Array<{ kind: 'codex' | 'claude'; offsetsMs: number[] }> = [
  { kind: 'codex', offsetsMs: [0, 1_000] },
  { kind: 'claude', offsetsMs: [0, 1_000] },
  { kind: 'codex', offsetsMs: [0, 0] },
  { kind: 'claude', offsetsMs: [0, 2_000] },
  { kind: 'codex', offsetsMs: [0, 500, 1_000] },
  { kind: 'claude', offsetsMs: [0, 700, 1_400] },
  { kind: 'codex', offsetsMs: [0, 2_000, 2_000] },
  { kind: 'claude', offsetsMs: [0, 0, 300] },
  { kind: 'codex', offsetsMs: [0, 1_500] },
  { kind: 'claude', offsetsMs: [0, 1_000, 2_000] },
];

interface AgentLine {
  pid: number;
  id: string;
  args: string[];
  runTag: string | null;
}
interface MarkerFile {
  name: string;
  sessionId: string | null;
  runTag: string;
  state: string;
}

async function round(
  t: { after(fn: () => void): void },
  kind: 'codex' | 'claude',
  offsetsMs: number[],
): Promise<string[]> {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const markers = join(dir, 'state', 'markers');
  const agentLog = join(dir, 'agent.jsonl');
  writeFileSync(agentLog, '');
  const env = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    STATE_DIRECTORY: join(dir, 'state'),
    MARKER_DIR: markers,
    AGENT_LOG: agentLog,
    AGENT_FRESH_IDS: '1',
    AGENT_TICK_MS: '100',
    DEADMAN_CONFIG: '',
    HOME: dir,
    NOTIFY_SOCKET: '',
    SHELL: '/bin/sh',
  };
  const agents = () => wholeJsonLines<AgentLine>(agentLog);
  const markerFiles = () =>
    (existsSync(markers) ? readdirSync(markers).filter((f) => f.endsWith('.json')) : []).map(
      (f) => JSON.parse(readFileSync(join(markers, f), 'utf8')) as MarkerFile,
    );
  // Each command its own option, so each its own run name and marker.
  const command = (n: number) => [
    process.execPath,
    agentScript,
    kind,
    kind === 'codex' ? '--profile' : '--model',
    `p${n}`,
  ];
  const start = (n: number): Promise<Finished> => {
    const inner = [process.execPath, deadmanBin, 'agent', '--poll', '250ms', '--', ...command(n)];
    return runProgram('script', ['-q', '-e', '-c', `exec ${inner.map(quote).join(' ')}`, '/dev/null'], {
      cwd: repo,
      env,
    });
  };
  const startAll = async () => {
    const runs: Array<Promise<Finished>> = [];
    for (const [n, offset] of offsetsMs.entries()) {
      await new Promise((resolve) => setTimeout(resolve, offset - (offsetsMs[n - 1] ?? 0)));
      runs.push(start(n));
    }
    return runs;
  };
  const profileOf = (a: AgentLine) => a.args[a.args.indexOf(kind === 'codex' ? '--profile' : '--model') + 1];
  const misses: string[] = [];

  const first = await startAll();
  const originals = await waitFor(() => (agents().length === offsetsMs.length ? agents() : null), 15_000, 'the agents');
  await waitFor(
    () => markerFiles().length === offsetsMs.length && markerFiles().every((m) => m.sessionId !== null),
    15_000,
    'every marker naming a session',
  );
  for (const a of originals) {
    const marker = markerFiles().find((m) => m.runTag === a.runTag);
    if (marker?.sessionId !== a.id)
      misses.push(
        `${kind} ${offsetsMs.join('/')} ms: the marker of agent ${profileOf(a)} (session ${a.id}) names ${marker?.sessionId}`,
      );
  }
  for (const a of originals) process.kill(a.pid, 'SIGKILL');
  await Promise.all(first);

  const again = await startAll();
  const resumed = await waitFor(
    () => (agents().length === 2 * offsetsMs.length ? agents().slice(offsetsMs.length) : null),
    15_000,
    'the resumed agents',
  );
  for (const a of resumed) {
    const own = originals.find((o) => profileOf(o) === profileOf(a))!;
    if (!a.args.includes(own.id))
      misses.push(
        `${kind} ${offsetsMs.join('/')} ms: agent ${profileOf(a)} was resumed as ${JSON.stringify(a.args)}, not into its session ${own.id}`,
      );
  }
  for (const a of resumed) process.kill(a.pid, 'SIGUSR1');
  await Promise.all(again);
  return misses;
}

test(
  'two and three agents started 0–2 s apart in one repository: each marker names its own session, each resume its own, 10 rounds',
  { timeout: 300_000 },
  async (t) => {
    t.after(startHostNoise());
    const misses: string[] = [];
    for (const { kind, offsetsMs } of ROUNDS) misses.push(...(await round(t, kind, offsetsMs)));
    assert.deepEqual(misses, []);
  },
);
