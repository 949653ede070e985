import { pathToFileURL } from 'node:url';
import { createRedactor } from '../lib/core/redact/redact.ts';
import { RedactedLineStream } from '../lib/core/redact/line-stream.ts';
import { median, table } from './helpers/figures.ts';

/**
 * What the redactor costs on the record path: 50 MB of mixed output — hand-made lines of the
 * agents' event shapes (with their token counts, the most common near-miss), build and test
 * lines, and one line in twenty carrying a secret — redacted line by line as the store does,
 * and in 64 KiB chunks through the trace's whole-line stream. CPU time, not wall time: on a
 * shared machine the wall clock measures the neighbours.
 */

const TOTAL_BYTES = 50 * 1024 * 1024;
const ROUNDS = 3;
const TARGET_MB_S = 20;

const AGENT = [
  JSON.stringify({
    type: 'item.completed',
    item: {
      id: 'item_7',
      type: 'command_execution',
      command: "/bin/bash -lc 'npm test'",
      aggregated_output: 'ok 1 - passes\nok 2 - passes\n',
      exit_code: 0,
      status: 'completed',
    },
  }),
  JSON.stringify({
    type: 'turn.completed',
    usage: { input_tokens: 12000, cached_input_tokens: 9000, output_tokens: 400 },
  }),
  JSON.stringify({
    type: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'I will run the tests and then fix the failing one.' }],
      usage: { input_tokens: 3, output_tokens: 120 },
    },
    session_id: '0f3c9a52-1b7e-4c1a-9d0e-6f2b8a7c5d41',
  }),
  JSON.stringify({
    type: 'user',
    message: {
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'src/app.ts:12: passed\nkeyboard layout ok' }],
    },
  }),
];
const BUILD = [
  'src/app.ts(12,3): error TS2345: Argument of type string',
  'PASS test/x.test.ts (1.2 s)',
  '  ✓ passes the signal test 3 ms',
  'npm warn deprecated inflight@1.0.6',
];
const SECRET = [
  'mytool --password hunterX9 --verbose',
  'Authorization: Basic ZGVwbG95Omh1bnRlcg==',
  'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0/B0/abcdefghijklmnop',
  'ACME_SIGNING_SECRET_V2=abc123def',
  'export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345',
];

function mixedLines(): { lines: string[]; bytes: number } {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < TOTAL_BYTES; i++) {
    const line =
      i % 20 === 0 ? SECRET[i % SECRET.length]! : i % 3 === 0 ? BUILD[i % BUILD.length]! : AGENT[i % AGENT.length]!;
    lines.push(line);
    bytes += line.length + 1;
  }
  return { lines, bytes };
}

function cpuSeconds(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

export async function main(): Promise<number> {
  const { lines, bytes } = mixedLines();
  const redactor = createRedactor({ env: { MY_SERVICE_TOKEN: 'env-only-secret' } });
  const whole = `${lines.join('\n')}\n`;
  const perLine: number[] = [];
  const stream: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    perLine.push(bytes / 1024 / 1024 / cpuSeconds(() => lines.forEach((line) => redactor.text(line))));
    stream.push(
      bytes /
        1024 /
        1024 /
        cpuSeconds(() => {
          const trace = new RedactedLineStream(redactor.text);
          for (let at = 0; at < whole.length; at += 65536) trace.write(whole.slice(at, at + 65536));
          trace.end();
        }),
    );
  }
  process.stdout.write(`redactor: 50 MB of mixed output, median of ${ROUNDS}\n`);
  process.stdout.write(
    table([
      {
        what: 'line by line (the store)',
        value: `${median(perLine).toFixed(1)} MB/s`,
        target: `≥ ${TARGET_MB_S} MB/s`,
        pass: median(perLine) >= TARGET_MB_S,
      },
      {
        what: 'whole lines from 64 KiB chunks (the trace)',
        value: `${median(stream).toFixed(1)} MB/s`,
        target: `≥ ${TARGET_MB_S} MB/s`,
        pass: median(stream) >= TARGET_MB_S,
      },
    ]),
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
