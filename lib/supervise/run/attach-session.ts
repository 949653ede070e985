import { createGenericAdapter } from '../../core/adapters/generic.ts';
import { processKey, type ProcessInfo } from '../../core/process/process-info.ts';
import type { OpenToolCall } from '../../core/session/open-tools.ts';
import { signalSequence } from '../../core/session/replay-report.ts';
import { OutputTracker } from '../output/output.ts';
import type { Clock, Logger, ProcessTree, Repeater, SignalSource } from '../ports.ts';
import type { StepRecords } from '../records/step-records.ts';
import { SerialTick } from './serial-tick.ts';
import { ATTACHED_KINDS } from '../../core/signals/registry.ts';
import { Supervisor, type SupervisorSettings } from '../tick/supervisor.ts';

/**
 * `deadman attach`: the supervisor's observe → detect → act → verify over an agent deadman
 * did not start. Its stdout is not deadman's, so the agent's session file stands in: the file
 * growing is output, its unanswered tool calls are the open tools, and every process that
 * started before the earliest open tool call is a helper (an MCP server), never a target.
 * Only proven descendants of the root are ever signalled, through the tree's terminate.
 */

export interface SessionFileLook {
  size: number;
  openTools: OpenToolCall[];
}

export interface AttachPorts {
  clock: Clock;
  logger: Logger;
  records: StepRecords;
  tree: Pick<ProcessTree, 'observe' | 'terminate'>;
  /** The attached agent's session file as it is now; null when there is none. */
  sessionFile(): SessionFileLook | null;
  every: Repeater;
  signals: SignalSource;
  print(line: string): void;
}

export interface AttachSummary {
  /** `KIND → ACTION… → STATE` per incident. */
  incidents: string[];
  killed: number[];
  ended: 'once' | 'root-exited' | 'signal' | 'stalled';
}

export interface AttachPlan {
  rootPid: number;
  /** Wall ms the agent started: a tool call its session file shows from before then was an earlier process's, cut off. */
  rootStartedAt: number;
  settings: SupervisorSettings;
  pollMs: number;
  /** One look, then the summary. */
  once: boolean;
}

export async function attachSession(plan: AttachPlan, ports: AttachPorts): Promise<AttachSummary> {
  const { rootPid, settings } = plan;
  const { clock } = ports;
  const startedAt = clock.monotonic();
  const generic = createGenericAdapter();
  const output = new OutputTracker(startedAt, () => generic, ports.records, { onSession: () => {} });
  // The agent's own helpers, as the hung detector judges them (tool-ownership.ts): born before the earliest open call.
  const helpers = (processes: readonly ProcessInfo[]) => {
    const first = output.state.firstToolAt;
    const born = (p: ProcessInfo) => supervisor.history.progress.processes.get(processKey(p))?.bornAt ?? Infinity;
    return new Set(processes.filter((p) => p.pid !== rootPid && (first === null || born(p) < first)).map(processKey));
  };
  let ended: AttachSummary['ended'] | null = null;
  const supervisor = new Supervisor({
    ports: { monotonic: () => clock.monotonic(), tree: ports.tree, records: ports.records, logger: ports.logger },
    settings: () => settings,
    output,
    startedAt,
    onStall: () => (ended ??= 'stalled'),
    kinds: ATTACHED_KINDS,
  });

  const readSessionFile = sessionFileReader(plan, ports, output);

  let status = '';
  const tick = async () => {
    readSessionFile();
    await supervisor.tick();
    const latest = supervisor.history.latest;
    if (!latest?.processes.some((p) => p.pid === rootPid)) ended ??= 'root-exited';
    const descendants = (latest?.processes ?? []).filter((p) => p.pid !== rootPid);
    const line = `monitoring ${descendants.length} owned descendant(s) of pid ${rootPid}, baseline ${helpers(descendants).size}${supervisor.recovering ? ` · recovering: ${supervisor.recovering}` : ''}`;
    if (line !== status) ports.print((status = line));
  };

  await tick();
  if (plan.once) ended ??= 'once';
  if (ended === null)
    await untilEnded(
      ports,
      plan.pollMs,
      tick,
      () => ended,
      (why) => (ended ??= why),
    );
  const killed = ports.records.steps.flatMap((step) => (step.step === 'action' ? step.killed : []));
  return { incidents: signalSequence(ports.records.steps), killed, ended: ended ?? 'once' };
}

/** Ticks every poll (one at a time) until the root exits, an incident escalates, or a stop signal arrives. */
function untilEnded(
  ports: AttachPorts,
  pollMs: number,
  tick: () => Promise<void>,
  ended: () => string | null,
  end: (why: 'signal') => void,
): Promise<void> {
  return new Promise((resolve) => {
    const ticks = new SerialTick(
      () =>
        tick().finally(() => {
          if (ended() !== null) finish();
        }),
      () => ports.clock.monotonic(),
    );
    const stopListening = ports.signals(() => {
      end('signal');
      finish();
    });
    const stopTicking = ports.every(pollMs, () => void ticks.run());
    let finished = false;
    function finish() {
      if (finished) return;
      finished = true;
      stopTicking();
      stopListening();
      void ticks.settled().then(() => resolve());
    }
  });
}

/** The session file's growth is the agent's output; its open tool calls, the open tools. */
function sessionFileReader(plan: AttachPlan, ports: AttachPorts, output: OutputTracker): () => void {
  const { clock } = ports;
  let lastSize: number | null = null;
  return () => {
    const look = ports.sessionFile();
    const now = clock.monotonic();
    if (look === null) return;
    const wroteAt = lastSize !== null && look.size !== lastSize ? now : null;
    lastSize = look.size;
    const wallNow = clock.wall();
    const toMonotonic = (wall: number | null) => (wall === null ? now : now - (wallNow - wall));
    const openTools = look.openTools.filter((tool) => tool.startedAt === null || tool.startedAt >= plan.rootStartedAt);
    const walls = openTools.map((tool) => tool.startedAt ?? wallNow);
    output.sessionFileSeen({
      wroteAt,
      openTools: new Map(openTools.map((tool) => [tool.toolId, toMonotonic(tool.startedAt)])),
      firstToolAt: walls.length ? toMonotonic(Math.min(...walls)) : null,
    });
  };
}
