import type { CommandModule } from 'yargs';
import { renderReplay, signalSequence } from '../core/session/replay-report.ts';
import { traceAdapter } from '../core/session/trace.ts';
import { ExitCode } from '../exit-codes.ts';
import { readTrace, shippedTraceNames } from '../io/session/trace-file.ts';
import { replayTrace } from '../supervise/trace/replay.ts';
import { commandClock } from './shared/command-clock.ts';

/**
 * `deadman replay TRACE`: a recorded run (or a shipped example) through the same detectors,
 * diagnosis, policy, recovery and verification, on the trace's simulated clock. Nothing is
 * signalled and nothing is written; a trace that says what it expects is checked against it.
 */

interface ReplayArgs {
  trace?: string;
  json?: boolean;
}

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay [trace]',
  describe:
    'replay a recorded run (deadman run --record FILE) or a shipped trace on a simulated clock; signals nothing',
  builder: (y) =>
    y
      .positional('trace', {
        type: 'string',
        describe: `a trace file, or a shipped trace: ${shippedTraceNames().join(', ')}`,
      })
      .option('json', { type: 'boolean', describe: 'print the steps and signal sequence as JSON' }),
  handler: async (args) => {
    if (args.trace === undefined) {
      process.stdout.write(
        `shipped traces (deadman replay NAME):\n${shippedTraceNames()
          .map((n) => `  ${n}\n`)
          .join('')}`,
      );
      return;
    }
    const { name, trace } = readTrace(args.trace);
    const replayed = await replayTrace(trace, commandClock.sleep);
    const sequence = signalSequence(replayed.steps);
    const view = {
      name,
      title: trace.header.title,
      adapter: traceAdapter(trace),
      durationMs: replayed.durationMs,
      steps: replayed.steps,
      notes: replayed.notes,
      outcome: replayed.result?.outcome ?? 'not started',
      exitCode: replayed.exitCode,
    };
    process.stdout.write(args.json ? `${JSON.stringify({ ...view, signals: sequence })}\n` : renderReplay(view));
    const expected = trace.header.expect;
    if (expected && JSON.stringify(expected) !== JSON.stringify(sequence)) {
      process.stderr.write(
        `deadman: replay of ${name} expected [${expected.join('; ')}] but showed [${sequence.join('; ')}]\n`,
      );
      process.exitCode = ExitCode.ATTENTION;
    }
  },
};
