import type { CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { packageFile } from '../io/files/package-files.ts';

/**
 * `deadman completion [fish|bash|zsh]`: prints the completion script the package ships in
 * contrib/completions/ (generated from the option tables: `npm run reference`). Without an
 * argument the shell is the one $SHELL names, bash when it names none of the three.
 */

const SCRIPTS = { fish: 'deadman.fish', bash: 'deadman.bash', zsh: '_deadman' } as const;
type Shell = keyof typeof SCRIPTS;
const SHELLS = Object.keys(SCRIPTS) as Shell[];

export const completionCommand: CommandModule<object, { shell?: Shell }> = {
  command: 'completion [shell]',
  describe:
    'print a shell completion script: deadman completion fish|bash|zsh (default: by $SHELL); install lines at its top',
  builder: (y) => y.positional('shell', { choices: SHELLS, describe: 'the shell the script is for' }),
  handler: (args) => {
    const shell = args.shell ?? shellOfEnvironment(process.env.SHELL);
    process.stdout.write(readFileSync(packageFile(`contrib/completions/${SCRIPTS[shell]}`), 'utf8'));
  },
};

function shellOfEnvironment(shell: string | undefined): Shell {
  const name = basename(shell ?? '');
  return SHELLS.find((known) => known === name) ?? 'bash';
}
