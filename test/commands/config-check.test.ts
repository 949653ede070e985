import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/** Each bad config and a fragment its problem line must contain. */
const CORPUS: Array<[string, string | Buffer, RegExp]> = [
  ['syntax-equals', 'inactivity = = "1h"\n', /:1:\d+: TOML syntax error/],
  ['syntax-unclosed-string', 'name = "abc\n', /TOML syntax error/],
  ['syntax-unclosed-table', '[revive\nmax_age = "1h"\n', /:1:\d+: TOML syntax error/],
  ['syntax-duplicate-key', 'poll = "1s"\npoll = "2s"\n', /:2:\d+: TOML syntax error/],
  ['syntax-bare-word', 'adapter = codex\n', /TOML syntax error/],
  ['unknown-key-typo', 'inactivty = "1h"\n', /unknown key "inactivty"; did you mean "inactivity"\?/],
  [
    'unknown-key-nested',
    '[revive]\nmax_revive = 3\n',
    /unknown key "max_revive" in \[revive\]; did you mean "max_revives"\?/,
  ],
  ['unknown-key-far', 'colour = "blue"\n', /unknown key "colour"; remove it/],
  ['unknown-section', '[retension]\nmax_runs = 5\n', /did you mean "retention"/],
  ['wrong-type-bool', 'auto_recover = "yes"\n', /auto_recover = "yes"/],
  ['wrong-type-number', '[revive]\nmax_revives = "five"\n', /revive\.max_revives = "five"/],
  ['wrong-type-array', 'ignore = "sleep"\n', /ignore = "sleep"/],
  ['negative-duration', 'inactivity = "-5min"\n', /is negative/],
  ['negative-number', '[revive]\nmax_revives = -1\n', /revive\.max_revives = -1/],
  [
    'past-timer-range',
    '[[evidence]]\nkind = "command"\ncommand = ["true"]\ntimeout = "30d"\n',
    /evidence\[0\]\.timeout = "30d": is above the maximum; allowed: 0 to 24d/,
  ],
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
  [
    'claim-path-and-glob',
    '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/a"\nglob = "/out/*.csv"\n',
    /exactly one of "path" or "glob"/,
  ],
  [
    'claim-relative-root',
    '[[evidence]]\nkind = "file"\nroot = "out"\nglob = "/out/*.csv"\n',
    /evidence\[0\]\.root = "out"/,
  ],
  ['claim-bad-url', '[[evidence]]\nkind = "http"\nurl = "ftp://x"\n', /http:\/\/ or https:\/\//],
  [
    'job-rerun-sentence',
    '[jobs.nightly]\nrerun = ["Run the backup script again by hand"]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n',
    /jobs\.nightly\.rerun = .*reads as an English sentence/,
  ],
  [
    'job-rerun-placeholder',
    '[jobs.nightly]\nrerun = ["/path/to/logrotate"]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n',
    /jobs\.nightly\.rerun = .*holds a placeholder/,
  ],
  [
    'job-duration-without-source',
    '[jobs.nightly]\nmin_duration = "1min"\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n',
    /jobs\.nightly\.min_duration.*needs "unit"/,
  ],
  ['job-bad-name', '[jobs."bad name"]\nrerun = ["/bin/true"]\n', /jobs/],
  ['binary-garbage', Buffer.from([0x00, 0xff, 0xfe, 0x10, 0x80, 0x00, 0x41]), /not UTF-8 text/],
  ['max-line-too-small', 'max_line_bytes = 10\n', /max_line_bytes = 10/],
];

/** Where each duration key sits in a file: the lines before it and its name. */
const DURATION_KEYS: Array<[string, string]> = [
  ...[
    'inactivity',
    'timeout',
    'stop_grace',
    'ready_timeout',
    'hung_timeout',
    'kill_grace',
    'poll',
    'verify_window',
  ].map((key) => ['', key] as [string, string]),
  ...['max_age', 'delay', 'start_timeout'].map((key) => ['[revive]\n', key] as [string, string]),
  ['[diagnose]\n', 'timeout'],
  ['[retention]\n', 'max_age'],
  ...['max_age', 'interval', 'grace'].map(
    (key) => ['[[evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n', key] as [string, string],
  ),
  ['[[evidence]]\nkind = "command"\ncommand = ["true"]\n', 'timeout'],
  ['[[evidence]]\nkind = "http"\nurl = "http://127.0.0.1:1/"\n', 'timeout'],
  ['[jobs.nightly]\nrerun = ["true"]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/o"\npath = "/o/x"\n', 'grace'],
];

/** Values no duration key takes: past every maximum, negative, infinite, not a number, not a span, 400 digits. */
const BAD_DURATIONS: Array<[string, string, RegExp]> = [
  ['past-max', '"11y"', /is above the maximum; allowed: /],
  ['negative', '"-1s"', /is negative/],
  ['inf', 'inf', /= Infinity: .*allowed: /],
  ['nan', 'nan', /= NaN: .*allowed: /],
  ['word', '"soon"', /is not a time span/],
  ['digits', `"${'9'.repeat(400)}s"`, /out of range/],
];

const GENERATED: Array<[string, string, RegExp]> = DURATION_KEYS.flatMap(([before, key]) =>
  BAD_DURATIONS.map(
    ([label, value, expected]) =>
      [
        `${before.split('\n')[0]!.replace(/\W+/g, '') || 'top'}-${key}-${label}`,
        `${before}${key} = ${value}\n`,
        expected,
      ] as [string, string, RegExp],
  ),
);

const EXTREME: Array<[string, string, RegExp]> = [
  ['nested-5000', `ignore = ${'['.repeat(5000)}${']'.repeat(5000)}\n`, /ignore\[0\] = \[\[\[.*\.\.\./],
  ['unknown-10000', Array.from({ length: 10_000 }, (_, i) => `key${i} = 1`).join('\n'), /and 9980 more problems/],
  [
    'glob-outside-root',
    '[[evidence]]\nkind = "file"\nroot = "/out"\nglob = "/tmp/*.csv"\n',
    /evidence\[0\]\.glob = "\/tmp\/\*\.csv": \/tmp\/\*\.csv is outside root \/out/,
  ],
  ['path-dotdot', '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/../etc/passwd"\n', /contains "\.\."/],
  ['poll-off', 'poll = "off"\n', /poll = "off": cannot be off here; allowed: 100ms to 1h/],
  ['kill-grace-infinity', 'kill_grace = "infinity"\n', /cannot be infinity here; allowed: 0 to 1h/],
];

/** Runs `deadman config check` on each file through the real CLI, all in one process (see the fixture). */
async function checkAll(
  dir: string,
  corpus: Array<[string, string | Buffer, RegExp]>,
  env: NodeJS.ProcessEnv = process.env,
) {
  const files = corpus.map(([name, content]) => {
    const file = join(dir, `${name}.toml`);
    writeFileSync(file, content);
    return file;
  });
  const run = await runProgram(
    process.execPath,
    [join(repoRoot, 'dist', 'test', 'fixtures', 'config-check-many.js'), ...files],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const results = JSON.parse(run.stdout) as Array<{ code: number; stdout: string; stderr: string }>;
  return corpus.map(([name, , expected], i) => ({ name, file: files[i]!, expected, result: results[i]! }));
}

function assertBadConfig({
  name,
  expected,
  result,
}: {
  name: string;
  expected: RegExp;
  result: { code: number | null; stdout: string; stderr: string };
}): string[] {
  const output = result.stdout + result.stderr;
  assert.equal(result.code, 78, `${name}: exit ${result.code}\n${output}`);
  assert.ok(output.trimEnd().split('\n').length <= 21, `${name}: more than 21 lines`);
  assert.doesNotMatch(output, /\n {4}at /, `${name}: stack trace`);
  const problems = result.stdout.split('\n').filter((l) => l.startsWith('problem: '));
  assert.ok(problems.length >= 1, `${name}: no problem line\n${output}`);
  assert.match(problems.join('\n'), expected, name);
  return problems;
}

test('every config of the bad corpus (at least 100) is exit 78, at most 21 lines, no stack trace, problems naming the file', async (t) => {
  const dir = tempDir(t);
  const corpus = [...CORPUS, ...GENERATED, ...EXTREME];
  assert.ok(corpus.length >= 100, `${corpus.length} bad configs`);
  for (const checked of await checkAll(dir, corpus)) {
    const problems = assertBadConfig(checked);
    assert.ok(
      problems.every((l) => l.includes(checked.file) || l.startsWith('problem: and ')),
      `${checked.name}: a problem line does not name the file\n${problems.join('\n')}`,
    );
  }
});

test('keys that work alone but not together, and an unwritable state directory, are problems of config check', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' };
  const [hung, watchdog] = await checkAll(
    dir,
    [
      [
        'hung-vs-inactivity',
        'inactivity = "1min"\nhung_timeout = "2min"\n',
        /^problem: hung_timeout \(2min\) is not shorter than inactivity \(1min\)/m,
      ],
      [
        'watchdog-vs-inactivity',
        'inactivity = "1min"\nhung_timeout = "30s"\n',
        /^problem: the systemd watchdog \(WatchdogSec=2min\) is longer than inactivity \(1min\)/m,
      ],
    ],
    { ...env, WATCHDOG_USEC: '120000000' },
  );
  assertBadConfig(hung!);
  assert.equal(assertBadConfig(watchdog!).length, 1);
  const notADirectory = join(dir, 'file');
  writeFileSync(notADirectory, '');
  const [unwritable] = await checkAll(
    dir,
    [
      [
        'state-under-a-file',
        'poll = "1s"\n',
        new RegExp(
          `^problem: state dir ${notADirectory}/state: ${notADirectory} is not a directory; set state_dir`,
          'm',
        ),
      ],
    ],
    { ...env, STATE_DIRECTORY: join(notADirectory, 'state') },
  );
  assertBadConfig(unwritable!);
});

test('an empty or comment-only file means every default, with a note on stderr', async (t) => {
  const dir = tempDir(t);
  for (const [name, content] of [
    ['empty', ''],
    ['blank', '\n\n   \n'],
    ['comments', '# nothing set yet\n\n# poll = "1s"\n'],
  ] as const) {
    const file = join(dir, `${name}.toml`);
    writeFileSync(file, content);
    const result = await runDeadman(['config', 'check', '--config', file], {
      env: { ...process.env, STATE_DIRECTORY: join(dir, 'state') },
    });
    assert.equal(result.code, 0, `${name}: ${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /problems: +none/);
    assert.equal(result.stderr, `deadman: note: ${file} has no settings; using the built-in defaults\n`);
  }
});

test('a directory, an unreadable file and a missing file are config errors too', async (t) => {
  const dir = tempDir(t);
  const cases: Array<[string, RegExp]> = [
    [dir, /is a directory/],
    [join(dir, 'missing.toml'), /does not exist/],
  ];
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
  const denied =
    process.getuid?.() === 0
      ? await runProgram('setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, ...args])
      : await runProgram(process.execPath, args);
  assert.equal(denied.code, 78, denied.stdout + denied.stderr);
  assert.match(denied.stdout, /secret\.toml: cannot be read \(permission denied\)/);
});

test('config check reports the resolved paths, systemd and the notify path', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'ok.toml');
  writeFileSync(file, 'inactivity = "1h 30min"\n[revive]\nmax_revives = 3\n');
  const result = await runDeadman(['config', 'check', '--config', file], {
    env: { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`config file: +${file}`));
  assert.match(result.stdout, new RegExp(`database: +${join(dir, 'state', 'deadman.db')}`));
  assert.match(result.stdout, /marker dir: +.*markers/);
  assert.match(result.stdout, /notify path: +none/);
  assert.match(result.stdout, /addon: +(sd-notify loaded|sd-notify)/);
  // Without the addon (no libsystemd-dev here) the NotifyAccess=all requirement is a problem of its own.
  assert.match(
    result.stdout,
    /addon: +sd-notify loaded/.test(result.stdout) ? /problems: +none/ : /problem: notify: .*NotifyAccess=all/,
  );
});

test("config check lists the systemd-notify fallback's NotifyAccess=all requirement under problems", async (t) => {
  const dir = tempDir(t);
  const result = await runDeadman(['config', 'check'], {
    cwd: dir,
    env: {
      ...process.env,
      STATE_DIRECTORY: join(dir, 'state'),
      NOTIFY_SOCKET: '',
      DEADMAN_CONFIG: '',
      DEADMAN_NOTIFY: 'systemd-notify',
    },
  });
  assert.equal(result.code, 78, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /^problem: notify: deadman notifies through systemd-notify \(DEADMAN_NOTIFY=systemd-notify\), so its unit needs NotifyAccess=all: .*deadman@\.service says main/m,
  );
});

test('discovery: $DEADMAN_CONFIG, then ./deadman.toml, else built-in defaults', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'cwd'));
  writeFileSync(join(dir, 'cwd', 'deadman.toml'), 'poll = "2s"\n');
  writeFileSync(join(dir, 'env.toml'), 'poll = "3s"\n');
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), DEADMAN_CONFIG: '' };
  const fromCwd = await runDeadman(['config', 'check'], { cwd: join(dir, 'cwd'), env });
  assert.match(fromCwd.stdout, /config file: +.*cwd\/deadman\.toml/);
  const fromEnv = await runDeadman(['config', 'check'], {
    cwd: join(dir, 'cwd'),
    env: { ...env, DEADMAN_CONFIG: join(dir, 'env.toml') },
  });
  assert.match(fromEnv.stdout, /config file: +.*env\.toml/);
  const none = await runDeadman(['config', 'check'], { cwd: dir, env: { ...env, DEADMAN_CONFIG: '' } });
  if (process.getuid?.() !== 0) assert.match(none.stdout, /config file: +\(none: built-in defaults\)/);
});

test('config schema prints a JSON Schema that describes every top-level key', async () => {
  const result = await runDeadman(['config', 'schema']);
  assert.equal(result.code, 0, result.stderr);
  const schema = JSON.parse(result.stdout) as { properties: Record<string, unknown>; additionalProperties?: boolean };
  for (const key of ['inactivity', 'hung_timeout', 'revive', 'evidence', 'jobs', 'auto_recover'])
    assert.ok(key in schema.properties, key);
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
