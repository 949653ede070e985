import type { Adapter, AdapterName } from '../../core/adapters/agent-events.ts';
import { adapterOptions, createAdapter, detectAdapter, sniffAdapter } from '../../core/adapters/index.ts';
import type { CodexStart } from '../../core/adapters/codex.ts';
import { readCodexCommand } from '../../core/adapters/codex-command.ts';
import { lastCodexTotal } from '../../io/store/codex-usage.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import type { PassResult } from '../../supervise/run/outcome.ts';
import { RunMarkerKeeper } from './run-marker.ts';
import type { Refusal, ReviveInput } from './start-decision.ts';
import { LAUNCHD_LABEL_ENV } from '../../core/units/launchd-exit.ts';

/**
 * What one `deadman run` pass starts: which argv (the original, or the resume of an interrupted
 * session), the adapter that reads its output, and the revive marker kept up to date around
 * it. The ports that talk to them are built in pass-ports.ts.
 */

export type PreparedRun =
  | { refusal: Refusal }
  | {
      refusal: null;
      argv: string[];
      /** Put into the child's environment as RUN_TAG_ENV: the marker records it. */
      runTag: string;
      reviveOf: string | null;
      startNote: string;
      /** The adapter now: `sniff` may still upgrade it from the first stdout line. */
      adapter(): Adapter;
      sniff: ((firstLine: string) => Promise<boolean>) | undefined;
      marker: Pick<RunMarkerKeeper, 'sessionStarted' | 'turnCompleted'>;
      finish(result: PassResult, underUnit: boolean): void;
    };

export async function prepareRun(input: ReviveInput): Promise<PreparedRun> {
  const { config } = input;
  const marker = await RunMarkerKeeper.prepare(input);
  const { start } = marker;
  if (start.refusal !== null) return { refusal: start.refusal };
  const adapterName: AdapterName = start.adapter ?? detectAdapter(input.command, config.adapter);
  const options = { ...adapterOptions(config.generic), codex: codexStart(start.argv, input.records) };
  let adapter: Adapter = await createAdapter(adapterName, options);
  const sniff =
    config.adapter === 'auto' && adapterName === 'generic' && start.adapter === null
      ? async (firstLine: string) => {
          const found = sniffAdapter(firstLine);
          if (found) adapter = await createAdapter(found, options);
          return found !== null;
        }
      : undefined;
  return {
    refusal: null,
    argv: start.argv,
    runTag: marker.runTag,
    reviveOf: start.sessionId,
    startNote: [`adapter ${adapterName}`, start.note].filter(Boolean).join(' · '),
    adapter: () => adapter,
    sniff,
    marker,
    // A launchd job is a unit too: a SIGINT there is `launchctl kill`, not a person's Ctrl-C.
    finish: (result, underUnit) => marker.finish(result, underUnit || Boolean(process.env[LAUNCHD_LABEL_ENV])),
  };
}

/** A resumed Codex thread starts from the cumulative total its last recorded turn reported (codex.ts, CodexStart). */
function codexStart(argv: readonly string[], records: RunRecords): CodexStart {
  const resumes = readCodexCommand(argv)?.resumes;
  if (!resumes) return { resumed: false };
  const { sessionId } = resumes;
  const earlierTotal =
    sessionId === null
      ? null
      : records.read("the session's earlier usage", (store) => lastCodexTotal(store, sessionId));
  return { resumed: true, sessionId, earlierTotal };
}
