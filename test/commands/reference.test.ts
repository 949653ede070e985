import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman } from '../helpers/cli.ts';
import { commandTable, type CommandDoc } from '../../lib/commands/reference/command-table.ts';

/**
 * The shipped fish completion and man pages are generated from the option tables and the
 * config schema (`deadman reference <page>`); they must equal what is generated now, render
 * without warnings, and name every command and option. --help names files that exist.
 */
const SHIPPED: Array<[string, string]> = [
  ['deadman.fish', 'contrib/completions/deadman.fish'],
  ['deadman.bash', 'contrib/completions/deadman.bash'],
  ['_deadman', 'contrib/completions/_deadman'],
  ['deadman.1', 'docs/man/deadman.1'],
  ['deadman.toml.5', 'docs/man/deadman.toml.5'],
];

test('the shipped completion and man pages equal the generated ones (regenerate all: npm run reference)', async () => {
  for (const [page, file] of SHIPPED) {
    const generated = await runDeadman(['reference', page]);
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(
      readFileSync(join(repoRoot, file), 'utf8'),
      generated.stdout,
      `${file} is stale: deadman reference ${page} > ${file}`,
    );
  }
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
  assert.deepEqual(pkg.man, ['./docs/man/deadman.1', './docs/man/deadman.toml.5']);
  for (const folder of ['docs/', 'contrib/'])
    assert.ok(pkg.files.includes(folder), `${folder} is not in package.json files`);
});

function everyCommand(table: readonly CommandDoc[]): CommandDoc[] {
  return table.flatMap((command) => [command, ...everyCommand(command.subcommands)]);
}

test('the fish completion and deadman(1) name every command and option of the CLI', () => {
  const fish = readFileSync(join(repoRoot, 'contrib', 'completions', 'deadman.fish'), 'utf8');
  const man = readFileSync(join(repoRoot, 'docs', 'man', 'deadman.1'), 'utf8');
  const commands = everyCommand(commandTable());
  assert.ok(commands.length >= 15, `${commands.length} commands`);
  for (const command of commands) {
    const word = command.name.split(' ').at(-1)!;
    assert.ok(fish.includes(`-a '${word}'`), `fish: no ${command.name}`);
    if (command.subcommands.length === 0)
      assert.ok(man.includes(`.SS "deadman ${command.name.replace(/-/g, '\\-')}`), `man: no ${command.name}`);
    for (const option of command.options) {
      assert.ok(
        fish.includes(`-n '__deadman_in ${command.name}' -l ${option.flag}`),
        `fish: no --${option.flag} of ${command.name}`,
      );
      assert.ok(man.includes(`.B \\-\\-${option.flag.replace(/-/g, '\\-')}`), `man: no --${option.flag}`);
    }
  }
  const hung = commands.find((c) => c.name === 'run')!.options.find((o) => o.flag === 'hung-timeout')!;
  assert.deepEqual([hung.takesValue, /hung/.test(hung.describe)], [true, true]);
});

const man = spawnSync('man', ['--version'], { encoding: 'utf8' });
test(
  'the man pages render with man -l and no warnings',
  { skip: man.status === 0 ? false : 'man is not installed here' },
  () => {
    for (const [page, heading] of [
      ['docs/man/deadman.1', /^DEADMAN\(1\)/],
      ['docs/man/deadman.toml.5', /^DEADMAN\.TOML\(5\)/],
    ] as const) {
      const rendered = spawnSync('man', ['--warnings', '-l', join(repoRoot, page)], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat' },
      });
      assert.equal(rendered.status, 0, rendered.stderr);
      assert.equal(rendered.stderr, '', `${page}: ${rendered.stderr}`);
      assert.match(rendered.stdout, heading);
      for (const section of ['NAME', 'DESCRIPTION', 'SEE ALSO'])
        assert.match(rendered.stdout, new RegExp(`^${section}$`, 'm'), `${page}: no ${section}`);
    }
    const config = spawnSync('man', ['-l', join(repoRoot, 'docs/man/deadman.toml.5')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '200', MANPAGER: 'cat' },
    }).stdout;
    for (const key of [
      'hung_timeout',
      '[revive]',
      'max_revives',
      '[[evidence]]',
      'stdout_matches',
      '[jobs.NAME]',
      'rerun',
    ])
      assert.ok(config.includes(key), `deadman.toml(5): no ${key}`);
    assert.match(config, /inactivity\s+Stall after this long.*Default: "30min"\./s);
  },
);

const fish = spawnSync('fish', ['--version'], { encoding: 'utf8' });
test(
  'fish parses the completion script',
  { skip: fish.status === 0 ? false : 'fish is not installed here (the script is checked by content above)' },
  () => {
    const checked = spawnSync('fish', ['--no-execute', join(repoRoot, 'contrib', 'completions', 'deadman.fish')], {
      encoding: 'utf8',
    });
    assert.equal(checked.status, 0, checked.stderr);
  },
);

test('--help names manuals and docs that exist in the package', async () => {
  const help = await runDeadman(['--help']);
  // Paths inside the package; /etc/deadman/… is the operator's, not shipped.
  const paths = [...help.stdout.replace(/\n/g, ' ').matchAll(/(?<=[\s(])\/[^\s)]+/g)]
    .map((m) => m[0].replace(/[.,]$/, ''))
    .filter((p) => p.startsWith(repoRoot));
  assert.ok(paths.length >= 3, help.stdout);
  for (const path of paths) assert.ok(existsSync(path), `--help names ${path}, which does not exist`);
  assert.match(help.stdout, /man deadman, man deadman\.toml/);
});
