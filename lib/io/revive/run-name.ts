import { createHash } from 'node:crypto';
import type { AdapterName } from '../../core/adapters/agent-events.ts';
import { commandIdentity, defaultRunName, identityKey } from '../../core/revive/command-identity.ts';

/** The run's name: `--name` (or `name =`) wins, else the unit's, else `<program>-<identity hash>`. */
export function runName(
  given: string | undefined,
  unit: string | null,
  command: readonly string[],
  adapter: AdapterName,
  cwd: string,
): string {
  if (given) return given;
  const hash = createHash('sha256')
    .update(identityKey(commandIdentity(adapter, command, cwd)))
    .digest('hex');
  return defaultRunName(unit, command, hash);
}
