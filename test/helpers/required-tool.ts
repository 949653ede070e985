import { spawnSync } from 'node:child_process';

/**
 * A `skip` value for a test that needs `tool`: false when `tool --version` (or `probe`) runs,
 * else the reason — or a throw under DEADMAN_REQUIRE_SYSTEMD=1 (.ci/run installs every tool
 * the tests need, so a skip there would hide a test that never ran).
 */
export function skipUnlessInstalled(tool: string, probe: string[] = ['--version']): false | string {
  const ran = spawnSync(tool, probe, { stdio: 'ignore' });
  if (ran.status === 0) return false;
  const reason = `${tool} is not installed here`;
  if (process.env.DEADMAN_REQUIRE_SYSTEMD === '1') throw new Error(`${reason} (DEADMAN_REQUIRE_SYSTEMD=1 forbids skipping)`);
  return reason;
}
