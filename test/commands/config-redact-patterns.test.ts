import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/**
 * Issue 38.4: a `[redact] patterns` entry that cannot serve is refused at load, alike by
 * `config check` and `run`: one line, exit 78, and never its text (a pattern may be the secret
 * it hides). Before, `config check` passed a 60 kB pattern that `run` then crashed on (exit 70,
 * "Regular expression too large", printing the pattern).
 */

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  INVOCATION_ID: '',
};
const PLANTED = 'planted-pattern-secret-7f3a';

const cases: Array<[string, string, RegExp]> = [
  [
    'a 60 kB alternation',
    `(?:${PLANTED}|${'a'.repeat(60_000)})`,
    /\(60032 characters, not shown: it may be a secret\): is longer than 4096 characters/,
  ],
  [
    'a pattern that does not compile',
    `${PLANTED}(`,
    /\(28 characters, not shown: it may be a secret\): is not a valid regular expression \(Unterminated group\)$/,
  ],
  ['a pattern that matches nothing at all', `(?:${PLANTED})?`, /matches the empty string/],
];

for (const [what, pattern, expected] of cases) {
  test(`${what} in [redact] patterns: config check and run refuse it in one line, exit 78, without its text`, async (t) => {
    const dir = tempDir(t);
    const config = join(dir, 'deadman.toml');
    writeFileSync(config, `[redact]\npatterns = ["\\\\d{6}", ${JSON.stringify(pattern)}]\n`);
    for (const args of [
      ['config', 'check', '--config', config],
      ['run', '--config', config, '--state-dir', dir, '--', 'echo', 'the-work-started'],
    ]) {
      const result = await runDeadman(args, { env });
      const output = result.stdout + result.stderr;
      assert.equal(result.code, 78, `${args[0]}: ${output.slice(0, 500)}`);
      const lines = output
        .trim()
        .split('\n')
        .filter((line) => !/^(ok|config|defaults|paths?):? /.test(line) && line.includes('redact'));
      assert.equal(lines.length, 1, `${args[0]}: ${output.slice(0, 500)}`);
      assert.match(lines[0]!, /redact\.patterns\[1\] /);
      assert.match(lines[0]!, expected);
      assert.ok(!output.includes(PLANTED), `${args[0]} printed the pattern`);
      assert.doesNotMatch(output, /the-work-started/, 'the work did not start');
    }
  });
}
