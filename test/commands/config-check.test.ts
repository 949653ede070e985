import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/** Each bad config and a fragment its problem line must contain. */
const CORPUS: Array<[string, string | Buffer, RegExp]> = [
  ['syntax-equals', 'inactivity = = "1h"\n', /:1:\d+: TOML syntax error/],
  ['syntax-unclosed-string', 'name = "abc\n', /TOML syntax error/],
  ['syntax-unclosed-table', '[revive\nmax_age = "1h"\n', /:1:\d+: TOML syntax error/],
  ['syntax-duplicate-key', 'poll = "1s"\npoll = "2s"\n', /:2:\d+: TOML syntax error/],
  ['syntax-bare-word', 'adapter = codex\n', /TOML syntax error/],
  ['unknown-key-typo', 'inactivty = "1h"\n', /unknown key "inactivty"; did you mean "inactivity"\?/],
  ['unknown-key-nested', '[revive]\nmax_revive = 3\n', /unknown key "max_revive" in \[revive\]; did you mean "max_revives"\?/],
  ['unknown-key-far', 'colour = "blue"\n', /unknown key "colour"; remove it/],
  ['unknown-section', '[retension]\nmax_runs = 5\n', /did you mean "retention"/],
  ['wrong-type-bool', 'auto_recover = "yes"\n', /auto_recover = "yes"/],
  ['wrong-type-number', '[revive]\nmax_revives = "five"\n', /revive\.max_revives = "five"/],
  ['wrong-type-array', 'ignore = "sleep"\n', /ignore = "sleep"/],
  ['negative-duration', 'inactivity = "-5min"\n', /is negative/],
  ['negative-number', '[revive]\nmax_revives = -1\n', /revive\.max_revives = -1/],
  ['past-timer-range', '[[evidence]]\nkind = "command"\ncommand = ["true"]\ntimeout = "30d"\n', /evidence\[0\]\.timeout = "30d": is above the maximum; allowed: 0 to 24d/],
  ['unknown-unit', 'hung_timeout = "5 fortnights"\n', /hung_timeout = "5 fortnights"/],
  ['bad-unit-suffix', 'poll = "5parsecs"\n', /unknown unit "parsecs"/],
  ['poll-zero', 'poll = 0\n', /poll = 0: is below the minimum; allowed: 100ms to 1h/],
  ['poll-month', 'poll = "30d"\n', /poll = "30d": is above the maximum; allowed: 100ms to 1h/],
  ['huge-number', `inactivity = "1${'0'.repeat(400)}"\n`, /inactivity = "1000.*out of range/],
  ['infinite-number', 'hung_timeout = inf\n', /hung_timeout = Infinity: .*allowed: 0 to 24d/],
  ['empty-duration', 'stop_grace = ""\n', /stop_grace = "": is empty/],
  ['bad-enum-adapter', 'adapter = "gemini"\n', /adapter = "gemini"/],
  ['bad-enum-stall', 'on_stall = "restart"\n', /on_stall = "restart"/],
  ['bad-regex', 'ready_pattern = "(unclosed"\n', /not a valid regular expression/],
  ['bad-regex-in-array', 'ignore = ["ok", "[z-a]"]\n', /ignore\[1\] = "\[z-a\]"/],
  ['port-out-of-range', 'ready_port = 70000\n', /ready_port = 70000/],
  ['relative-state-dir', 'state_dir = "var/lib"\n', /must be an absolute path/],
  ['claim-missing-kind', '[[evidence]]\nroot = "/out"\npath = "/out/x"\n', /evidence\[0\]/],
  ['claim-path-and-glob', '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/a"\nglob = "/out/*.csv"\n', /exactly one of "path" or "glob"/],
  ['claim-relative-root', '[[evidence]]\nkind = "file"\nroot = "out"\nglob = "/out/*.csv"\n', /evidence\[0\]\.root = "out"/],
  ['claim-bad-url', '[[evidence]]\nkind = "http"\nurl = "ftp://x"\n', /http:\/\/ or https:\/\//],
  ['job-without-rerun', '[jobs.nightly]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n', /jobs\.nightly\.rerun/],
  ['job-bad-name', '[jobs."bad name"]\nrerun = ["/bin/true"]\n', /jobs/],
  ['empty-file', '', /is empty/],
  ['whitespace-only', '\n\n   \n', /is empty/],
  ['binary-garbage', Buffer.from([0x00, 0xff, 0xfe, 0x10, 0x80, 0x00, 0x41]), /not UTF-8 text/],
  ['max-line-too-small', 'max_line_bytes = 10\n', /max_line_bytes = 10/],
];

test('every config in the bad corpus gives precise one-line problems and exit 78', async (t) => {
  const dir = tempDir(t);
  assert.ok(CORPUS.length >= 30);
  for (const [name, content, expected] of CORPUS) {
    const file = join(dir, `${name}.toml`);
    writeFileSync(file, content);
    const result = await runDeadman(['config', 'check', '--config', file]);
    assert.equal(result.code, 78, `${name}: exit ${result.code}\n${result.stdout}${result.stderr}`);
    const problems = result.stdout.split('\n').filter((l) => l.startsWith('problem: '));
    assert.ok(problems.length >= 1, `${name}: no problem line\n${result.stdout}`);
    assert.ok(problems.every((l) => l.includes(file) || l.includes('command line')), `${name}: a problem line does not name the file\n${result.stdout}`);
    assert.match(problems.join('\n'), expected, name);
    assert.doesNotMatch(result.stdout + result.stderr, /\n\s+at /, `${name}: stack trace`);
  }
});

test('a directory, an unreadable file and a missing file are config errors too', async (t) => {
  const dir = tempDir(t);
  const cases: Array<[string, RegExp]> = [[dir, /is a directory/], [join(dir, 'missing.toml'), /does not exist/]];
  const unreadable = join(dir, 'secret.toml');
  writeFileSync(unreadable, 'poll = "1s"\n');
  chmodSync(unreadable, 0o000);
  for (const [path, expected] of cases) {
    const result = await runDeadman(['config', 'check', '--config', path]);
    assert.equal(result.code, 78, path);
    assert.match(result.stdout, expected);
  }
  // root reads anything: drop the capabilities that let it, so mode 000 applies to it too.
  const args = [deadmanBin, 'config', 'check', '--config', unreadable];
  const denied = process.getuid?.() === 0
    ? await runProgram('setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, ...args])
    : await runProgram(process.execPath, args);
  assert.equal(denied.code, 78, denied.stdout + denied.stderr);
  assert.match(denied.stdout, /secret\.toml: cannot be read \(permission denied\)/);
});

test('config check reports the resolved paths, systemd and the notify path', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'ok.toml');
  writeFileSync(file, 'inactivity = "1h 30min"\n[revive]\nmax_revives = 3\n');
  const result = await runDeadman(['config', 'check', '--config', file], { env: { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`config file: +${file}`));
  assert.match(result.stdout, new RegExp(`database: +${join(dir, 'state', 'deadman.db')}`));
  assert.match(result.stdout, /marker dir: +.*markers/);
  assert.match(result.stdout, /notify path: +none/);
  assert.match(result.stdout, /addon: +(sd-notify loaded|sd-notify)/);
  assert.match(result.stdout, /problems: +none/);
});

test('discovery: $DEADMAN_CONFIG, then ./deadman.toml, else built-in defaults', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'cwd'));
  writeFileSync(join(dir, 'cwd', 'deadman.toml'), 'poll = "2s"\n');
  writeFileSync(join(dir, 'env.toml'), 'poll = "3s"\n');
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), DEADMAN_CONFIG: '' };
  const fromCwd = await runDeadman(['config', 'check'], { cwd: join(dir, 'cwd'), env });
  assert.match(fromCwd.stdout, /config file: +.*cwd\/deadman\.toml/);
  const fromEnv = await runDeadman(['config', 'check'], { cwd: join(dir, 'cwd'), env: { ...env, DEADMAN_CONFIG: join(dir, 'env.toml') } });
  assert.match(fromEnv.stdout, /config file: +.*env\.toml/);
  const none = await runDeadman(['config', 'check'], { cwd: dir, env: { ...env, DEADMAN_CONFIG: '' } });
  if (process.getuid?.() !== 0) assert.match(none.stdout, /config file: +\(none: built-in defaults\)/);
});

test('config schema prints a JSON Schema that describes every top-level key', async () => {
  const result = await runDeadman(['config', 'schema']);
  assert.equal(result.code, 0, result.stderr);
  const schema = JSON.parse(result.stdout) as { properties: Record<string, unknown>; additionalProperties?: boolean };
  for (const key of ['inactivity', 'hung_timeout', 'revive', 'evidence', 'jobs', 'auto_recover']) assert.ok(key in schema.properties, key);
  assert.equal(schema.additionalProperties, false);
});

test('unknown commands and flags are one-line usage errors (exit 64)', async () => {
  for (const args of [['frobnicate'], ['config', 'check', '--frob'], []]) {
    const result = await runDeadman(args);
    assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  const version = await runDeadman(['--version']);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  assert.equal(version.stderr, '');
});
