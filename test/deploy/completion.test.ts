import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { skipUnlessInstalled } from '../helpers/required-tool.ts';

/**
 * The shell completions complete, in the real shells: fish's `complete -C`, bash's
 * completion function over COMP_WORDS, and zsh's compsys (compinit) answering a Tab typed
 * into an interactive zsh on a pseudo-terminal. `deadman completion SHELL` picks the script.
 */
const completions = join(repoRoot, 'contrib', 'completions');
const TMP = { ...process.env, TMPDIR: process.env.TMPDIR ?? '/tmp' };

test("deadman completion fish|bash|zsh prints that shell's shipped script; without one, $SHELL picks it", async () => {
  for (const [shell, file] of [
    ['fish', 'deadman.fish'],
    ['bash', 'deadman.bash'],
    ['zsh', '_deadman'],
  ]) {
    const shipped = readFileSync(join(completions, file!), 'utf8');
    const named = await runDeadman(['completion', shell!]);
    assert.deepEqual([named.code, named.stderr], [0, '']);
    assert.equal(named.stdout, shipped, `completion ${shell}`);
    const bySHELL = await runDeadman(['completion'], { env: { ...process.env, SHELL: `/usr/bin/${shell}` } });
    assert.equal(bySHELL.stdout, shipped, `SHELL=/usr/bin/${shell}`);
  }
  const plain = await runDeadman(['completion'], { env: { ...process.env, SHELL: '/bin/sh' } });
  assert.equal(plain.stdout, readFileSync(join(completions, 'deadman.bash'), 'utf8'));
  const unknown = await runDeadman(['completion', 'tcsh']);
  assert.equal(unknown.code, 64, unknown.stderr);
  assert.match(unknown.stderr, /tcsh/);
  assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
});

/** What each shell must offer for a line typed before Tab (every one is asked of every shell). */
const CASES: Array<[line: string, offered: string[]]> = [
  ['deadman conf', ['config']],
  ['deadman config ', ['check', 'schema']],
  ['deadman --config x.toml config ch', ['check']],
  ['deadman run --hung-t', ['--hung-timeout']],
  ['deadman health --qu', ['--quiet']],
  ['deadman completion ', ['fish', 'bash', 'zsh']],
  // Enum flags offer their values, not file names.
  ['deadman run --adapter ', ['auto', 'codex', 'claude', 'generic']],
  ['deadman run --on-stall ', ['withhold', 'exit']],
  ['deadman run --on-stall wi', ['withhold']],
  ['deadman install --adapter cl', ['claude']],
  ['deadman unit --stdin inh', ['inherit']],
  ['deadman notify ', ['start', 'success', 'fail', 'incident']],
];

test(
  'fish completes commands, subcommands, options and the completion shells, without errors',
  { skip: skipUnlessInstalled('fish') },
  () => {
    for (const [line, offered] of CASES) {
      const script = `source ${join(completions, 'deadman.fish')}; complete -C ${JSON.stringify(line)}`;
      const fish = spawnSync('fish', ['--no-config', '-c', script], { encoding: 'utf8', env: TMP });
      assert.deepEqual([fish.status, fish.stderr], [0, ''], line);
      assert.deepEqual(
        fish.stdout
          .split('\n')
          .filter(Boolean)
          .map((row) => row.split('\t')[0])
          .sort(),
        [...offered].sort(),
        line,
      );
    }
  },
);

test('bash completes the same lines', { skip: skipUnlessInstalled('bash') }, () => {
  for (const [line, offered] of CASES) {
    const script = `source ${join(completions, 'deadman.bash')}
read -ra COMP_WORDS <<< ${JSON.stringify(line)}; [[ ${JSON.stringify(line)} == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _deadman; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const bash = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8', env: TMP });
    assert.deepEqual([bash.status, bash.stderr], [0, ''], line);
    assert.deepEqual(bash.stdout.split('\n').filter(Boolean).sort(), [...offered].sort(), line);
  }
});

test(
  'zsh (compinit, a Tab typed on a terminal) completes a unique word in place',
  { skip: skipUnlessInstalled('zsh') },
  () => {
    for (const [line, offered] of CASES.filter(([, offered]) => offered.length === 1)) {
      const zsh = spawnSync('zsh', ['-f', fixturePath('zsh-complete.zsh'), join(completions, '_deadman'), line], {
        encoding: 'utf8',
        env: TMP,
        timeout: 20_000,
      });
      assert.equal(zsh.status, 0, zsh.stderr);
      const completed = line.replace(/\S*$/, offered[0]!);
      assert.equal(zsh.stdout.trim(), completed, `${line} + Tab`);
    }
  },
);
