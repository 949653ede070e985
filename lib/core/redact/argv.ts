import { createLineRedactor } from './line-redactor.ts';
import { REDACTED } from './shapes.ts';
import { isSecretName, PASSWORD_SHORT_FLAGS } from './secret-names.ts';

/**
 * An argument vector, where a flag and its value are separate strings (`['mysql', '-p',
 * 'hunter2']`, `['deploy', '--token', 'X']`): the string after a flag that names a secret is
 * hidden whole, which redacting each string alone cannot see. The strings are also read as
 * lines in order (an incident's recent output is such an array too), so the lines of a PEM
 * block are hidden as the block they make.
 */
export function redactArgv(argv: readonly string[], text: (s: string) => string): string[] {
  const shortFlags = shortPasswordFlags(argv);
  const lines = createLineRedactor(text);
  return argv.map((arg, i) => {
    const flag = i > 0 ? argv[i - 1]! : '';
    if (i > 0 && !arg.startsWith('-') && (shortFlags.has(flag) || isSecretFlag(flag))) return REDACTED;
    const attached = [...shortFlags].find(
      (short) => arg.startsWith(short) && arg.length > short.length && !arg.startsWith('--'),
    );
    return attached ? `${attached}${REDACTED}` : lines.line(arg);
  });
}

/** `--password`, `--api-key`, `-token` (not `--password=x`: the text shapes hide that). */
function isSecretFlag(arg: string): boolean {
  return /^--?[A-Za-z][\w-]*$/.test(arg) && isSecretName(arg.replace(/^-+/, ''));
}

/** The short flags that take a password for the program this argv runs (`mysql` → `-p`). */
function shortPasswordFlags(argv: readonly string[]): Set<string> {
  const program = (argv[0] ?? '').split('/').at(-1)!;
  const subcommand = argv.slice(1).find((arg) => !arg.startsWith('-'));
  return new Set(
    PASSWORD_SHORT_FLAGS.filter(
      (known) => known.program === program || known.program === `${program} ${subcommand}`,
    ).map((known) => known.flag),
  );
}
