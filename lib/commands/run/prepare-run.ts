import type { Adapter, AdapterName } from '../../core/adapters/agent-events.ts';
import { adapterOptions, createAdapter, detectAdapter, sniffAdapter } from '../../core/adapters/index.ts';
import type { CodexStart } from '../../core/adapters/codex.ts';
import { readCodexCommand } from '../../core/adapters/codex-command.ts';
import type { SdNotifier } from '../../core/ports/sd-notifier.ts';
import { lastCodexTotal } from '../../io/store/codex-usage.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import { createObserver } from '../../io/process/observer.ts';
import { stopOwnedTree, terminateSubtree } from '../../io/process/kill.ts';
import { portAccepts } from '../../io/process/port-probe.ts';
import type { Redactor } from '../../core/redact/redact.ts';
import { createEvidenceGate } from '../../supervise/run/evidence-gate.ts';
import type { LiveConfig } from '../../supervise/run/live-config.ts';
import type { RunResult } from '../../supervise/run/outcome.ts';
import type { ProcessTree, RunSessionPorts } from '../../supervise/ports.ts';
import { RunMarkerKeeper, type Refusal, type ReviveInput } from './run-marker.ts';
import { consultFor } from './diagnostician-edge.ts';
import { workspaceFingerprinter } from '../../io/workspace-fingerprint.ts';
import { LAUNCHD_LABEL_ENV } from '../../core/units/launchd-exit.ts';

/**
 * The real edges of one `deadman run`: which argv to start (the original, or the resume of an
 * interrupted session), the adapter that reads its output, the owned-tree observer and killer,
 * the evidence gate, and the revive marker kept up to date around it.
 */

/** The revive decision's input, and what the rest of the edges need besides. */
export interface PrepareRunInput extends ReviveInput {
  /** What the diagnostician is shown passes through it: the incident's lines and argv are the work's. */
  redactor: Redactor;
  notifier: SdNotifier;
  unit: string | null;
  /** The config as SIGHUP may change it while the work runs: the evidence follows it. */
  live: LiveConfig;
}

export type PreparedRun =
  | { refusal: Refusal }
  | {
    refusal: null;
    argv: string[];
    /** Put into the child's environment as RUN_TAG_ENV: the marker records it. */
    runTag: string;
    reviveOf: string | null;
    startNote: string;
    ports: Pick<RunSessionPorts, 'makeTree' | 'adapter' | 'sniff' | 'onSession' | 'onTurnCompleted' | 'evidence' | 'portAccepts' | 'consult' | 'workspace'>;
    finish(result: RunResult): void;
  };

export async function prepareRun(input: PrepareRunInput): Promise<PreparedRun> {
  const { config, logger } = input;
  const { clock } = input.context;
  const marker = await RunMarkerKeeper.prepare(input);
  if (marker.refusal !== null) return { refusal: marker.refusal };
  const adapterName: AdapterName = marker.adapter ?? detectAdapter(input.command, config.adapter);
  const options = { ...adapterOptions(config.generic), codex: codexStart(marker.argv, input.records) };
  let adapter: Adapter = await createAdapter(adapterName, options);
  const sniff = config.adapter === 'auto' && adapterName === 'generic' && marker.adapter === null
    ? async (firstLine: string) => {
      const found = sniffAdapter(firstLine);
      if (found) adapter = await createAdapter(found, options);
      return found !== null;
    }
    : undefined;
  const evidence = createEvidenceGate(() => input.live.current.evidence, {
    evaluate: async (claim, index) => {
      // Loaded on the first check: its node:http/https cost ~30 ms of start-up that a run without claims never needs.
      const { evaluateClaim } = await import('../../io/evidence/evidence.ts');
      return evaluateClaim(claim, index, () => clock.wall());
    },
    monotonic: () => clock.monotonic(),
    records: input.records,
  });
  return {
    refusal: null,
    argv: marker.argv,
    runTag: marker.runTag,
    reviveOf: marker.sessionId,
    startNote: [`adapter ${adapterName}`, marker.note].filter(Boolean).join(' · '),
    ports: {
      makeTree: (rootPid, runTag) => makeTree(rootPid, runTag, input.live, input.unit !== null, () => clock.monotonic()),
      adapter: () => adapter,
      ...(sniff ? { sniff } : {}),
      onSession: (id) => {
        input.records.update({ session_id: id, adapter: adapter.name });
        marker.sessionStarted(id, logger);
      },
      onTurnCompleted: () => marker.turnCompleted(),
      evidence,
      portAccepts,
      consult: consultFor(config.diagnose, input.redactor),
      workspace: workspaceFingerprinter(input.cwd, () => clock.monotonic()),
    },
    // A launchd job is a unit too: a SIGINT there is `launchctl kill`, not a person's Ctrl-C.
    finish: (result) => marker.finish(result, input.unit !== null || Boolean(process.env[LAUNCHD_LABEL_ENV])),
  };
}

/** A resumed Codex thread starts from the cumulative total its last recorded turn reported (codex.ts, CodexStart). */
function codexStart(argv: readonly string[], records: RunRecords): CodexStart {
  const resumes = readCodexCommand(argv)?.resumes;
  if (!resumes) return { resumed: false };
  const { sessionId } = resumes;
  const earlierTotal = sessionId === null ? null : records.read('the session\'s earlier usage', (store) => lastCodexTotal(store, sessionId));
  return { resumed: true, sessionId, earlierTotal };
}

/** The owned tree of one run: the observer and the two killers, all checking ownership before every signal; kill_grace as SIGHUP left it. */
function makeTree(rootPid: number, runTag: string, live: LiveConfig, underSystemd: boolean, monotonic: () => number): ProcessTree {
  const observer = createObserver({ rootPid, useCgroup: underSystemd, monotonic, runTag });
  const guards = { selfPid: process.pid, parentPid: process.ppid };
  return {
    observe: () => observer.observe(),
    terminate: (target) => terminateSubtree(target, { graceMs: live.current.kill_grace, observer, guards: { ...guards, rootPid }, monotonic }),
    stopAll: async (signal, graceMs, abort) => {
      await stopOwnedTree({ observer, rootPid, signal, graceMs, abort, guards, monotonic });
    },
  };
}
