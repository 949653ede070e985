import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ptyArgv } from '../../../lib/core/session/pty-argv.ts';
import { runProgram, tempDir } from '../../helpers/cli.ts';
import { NASTY_ARGS } from '../../fixtures/nasty-args.ts';

/**
 * Both forms of the `script` command line. macOS's is checked against the argv BSD script(1)
 * documents (`script [-q] [file [command …]]`, no -e or -c): it was never run on a Mac. The
 * util-linux form is also run through this host's real `script`, so its quoting is proven.
 */

test('macOS: BSD script takes the agent as trailing argv, no shell and no -e/-c', () => {
  assert.deepEqual(
    ptyArgv(['codex', '--model', 'o3', "it's"], { script: '/usr/bin/script', platform: 'darwin', shell: '/bin/zsh' }),
    {
      argv: ['/usr/bin/script', '-q', '/dev/null', 'codex', '--model', 'o3', "it's"],
      env: {},
    },
  );
});

test("Linux: util-linux script runs the agent through sh -c with -e, the person's SHELL put back for the agent", () => {
  assert.deepEqual(ptyArgv(['claude', "it's"], { script: '/usr/bin/script', platform: 'linux', shell: '/bin/zsh' }), {
    argv: ['/usr/bin/script', '-q', '-e', '-c', `SHELL='/bin/zsh' exec 'claude' 'it'\\''s'`, '/dev/null'],
    env: { SHELL: '/bin/sh' },
  });
  assert.equal(
    ptyArgv(['codex'], { script: '/bin/script', platform: 'linux', shell: undefined })!.argv[4],
    `unset SHELL; exec 'codex'`,
  );
});

test('no known script elsewhere', () => {
  assert.equal(ptyArgv(['codex'], { script: '/usr/bin/script', platform: 'win32', shell: undefined }), null);
});

test('Linux: through the real util-linux script every argument arrives byte for byte, with SHELL restored and the exit code passed through', async (t) => {
  const out = join(tempDir(t), 'argv.json');
  const program = `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(1), shell: process.env.SHELL })); process.exit(9)`;
  const command = ptyArgv([process.execPath, '-e', program, ...NASTY_ARGS], {
    script: 'script',
    platform: 'linux',
    shell: '/bin/my shell',
  })!;
  const finished = await runProgram(command.argv[0]!, command.argv.slice(1), {
    env: { ...process.env, ...command.env },
  });
  assert.equal(finished.code, 9, finished.stderr);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { argv: NASTY_ARGS, shell: '/bin/my shell' });
});
