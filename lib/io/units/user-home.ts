import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { usageError } from '../../exit-codes.ts';

/**
 * The home directory of a system unit's User=, as the unit must name it: in a system unit `%h`
 * is root's home whatever User= says (systemd.unit(5)), so ReadWritePaths=%h would leave the
 * agent's own HOME read-only. Asked of NSS (`getent passwd`), so LDAP and sssd users resolve too.
 */
export function homeOf(user: string): string {
  const me = userInfo();
  if (user === me.username) return me.homedir;
  let entry: string;
  try {
    entry = execFileSync('getent', ['passwd', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    throw usageError(`--run-as "${user}": no such user (getent passwd ${user} found none)`);
  }
  const home = entry.trim().split(':')[5];
  if (!home?.startsWith('/')) throw usageError(`--run-as "${user}": getent passwd gives no absolute home directory`);
  return home;
}
