import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  escapeSpecifiers,
  quoteCommandLine,
  quoteEnvironmentAssignment,
  quoteExecArg,
  SYSTEMD_LINE_MAX,
} from '../../../lib/core/units/systemd-quote.ts';
import { repoRoot, tempDir } from '../../helpers/cli.ts';
import { startUserManager } from '../../helpers/systemd.ts';
import { NASTY_ARGS } from '../../fixtures/nasty-args.ts';

test('quotes each argument the way systemd unquotes it', () => {
  const cases: Array<[string, string]> = [
    ['/usr/bin/node', '/usr/bin/node'],
    ['--inactivity', '--inactivity'],
    ['two words', '"two words"'],
    ['say "hi"', '"say \\"hi\\""'],
    ["it's", '"it\'s"'],
    ['100%', '100%%'],
    ['$HOME', '$$HOME'],
    ['a b $x %y', '"a b $$x %%y"'],
    ['back\\slash', '"back\\\\slash"'],
    ['', '""'],
    [';', '";"'],
    ['-x', '-x'],
    ['ü', '"ü"'],
    ['tab\there', '"tab\\x09here"'],
  ];
  for (const [arg, expected] of cases)
    assert.deepEqual(quoteExecArg(arg), { ok: true, text: expected }, JSON.stringify(arg));
});

test('Environment= assignments double % but leave $ alone (no $ expansion there)', () => {
  assert.deepEqual(quoteEnvironmentAssignment('PATH', '/usr/bin:/bin'), { ok: true, text: 'PATH=/usr/bin:/bin' });
  assert.deepEqual(quoteEnvironmentAssignment('MSG', 'a $b 5%'), { ok: true, text: '"MSG=a $b 5%%"' });
  const bad = quoteEnvironmentAssignment('1BAD', 'x');
  assert.ok(!bad.ok && bad.error.includes('not valid'));
});

test('refuses what a unit file cannot hold, with one line saying why', () => {
  for (const value of ['line\nbreak', 'carriage\rreturn', 'nul\0byte', 'lone \ud800 surrogate']) {
    const result = quoteExecArg(value);
    assert.equal(result.ok, false, JSON.stringify(value));
    assert.ok(!result.ok && !result.error.includes('\n'), 'the error is one line');
  }
  const line = quoteCommandLine(['/bin/echo', 'ok', 'multi\nline']);
  assert.ok(!line.ok && line.error.startsWith('argument 3 ') && line.error.includes('line break'));
  const huge = quoteCommandLine(['/bin/echo', 'x'.repeat(SYSTEMD_LINE_MAX)]);
  assert.ok(!huge.ok && huge.error.includes('move the long argument into a file'));
  const specifiers = escapeSpecifiers('50% done');
  assert.deepEqual(specifiers, { ok: true, text: '50%% done' });
  assert.equal(escapeSpecifiers('a\nb').ok, false);
});

test('every nasty argument and environment value reaches the program verbatim under real systemd', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const out = join(dir, 'argv.json');
  const dumper = join(repoRoot, 'test', 'fixtures', 'programs', 'dump-argv.mjs');
  const command = quoteCommandLine([process.execPath, dumper, out, ...NASTY_ARGS]);
  assert.ok(command.ok, !command.ok ? command.error : '');
  const envValue = 'a "quoted" $VALUE with 5% and \\ backslash ✓';
  const env = quoteEnvironmentAssignment('NASTY', envValue);
  assert.ok(env.ok);
  await manager.writeUnit(
    'quoting.service',
    [
      '[Service]',
      'Type=oneshot',
      `Environment=${env.text}`,
      'Environment=DUMP_ENV=NASTY',
      `ExecStart=${command.text}`,
      '',
    ].join('\n'),
  );
  const started = await manager.systemctl('start', 'quoting.service');
  assert.equal(started.code, 0, `${started.stderr} ${readFileSync(manager.logPath, 'utf8').slice(-2000)}`);
  const dumped = JSON.parse(readFileSync(out, 'utf8')) as { args: string[]; env: Record<string, string> };
  assert.equal(dumped.args.length, NASTY_ARGS.length);
  for (const [i, arg] of NASTY_ARGS.entries()) assert.equal(dumped.args[i], arg, `argument ${i}`);
  assert.equal(dumped.env.NASTY, envValue);
});
