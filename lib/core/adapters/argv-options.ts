/**
 * Walks an agent's arguments the way its own parser would, so a resumed run can repeat the
 * options and find the prompt. Knows only the shape of each option (takes a value, takes
 * several, may take one); the agents' modules say which option is which.
 */

export interface OptionShapes {
  /** `--model gpt-5` */
  valued: ReadonlySet<string>;
  /** `--allowedTools Bash Edit`: every following non-option (commander's variadic options). */
  variadic?: ReadonlySet<string>;
  /** `--resume [id]`: the next argument when it is not an option. */
  optionalValue?: ReadonlySet<string>;
}

export type ArgPart = { kind: 'option'; name: string; tokens: string[] } | { kind: 'positional'; value: string };

export function walkArgs(args: readonly string[], shapes: OptionShapes): ArgPart[] {
  const parts: ArgPart[] = [];
  let i = 0;
  while (i < args.length) {
    const token = args[i]!;
    if (token === '--') {
      for (const value of args.slice(i + 1)) parts.push({ kind: 'positional', value });
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      parts.push({ kind: 'positional', value: token });
      i += 1;
      continue;
    }
    const [name] = token.split('=', 1) as [string];
    const tokens = [token];
    i += 1;
    if (!token.includes('=')) {
      const isValue = (t: string | undefined) => t !== undefined && (!t.startsWith('-') || t === '-');
      if (shapes.valued.has(name) && i < args.length) tokens.push(args[i++]!);
      else if (shapes.variadic?.has(name)) while (isValue(args[i])) tokens.push(args[i++]!);
      else if (shapes.optionalValue?.has(name) && isValue(args[i])) tokens.push(args[i++]!);
    }
    parts.push({ kind: 'option', name, tokens });
  }
  return parts;
}
