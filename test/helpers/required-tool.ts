import { spawnSync } from 'node:child_process';

/**
 * A `skip` value for a test that needs `tool`: false when `tool --version` (or `probe`) runs,
 * else the reason — or a throw under DEADMAN_REQUIRE_SYSTEMD=1 (.ci/run installs every tool
 * the tests need, so a skip there would hide a test that never ran).
 */
export function skipUnlessInstalled(tool: string, probe: string[] = ['--version']): false | string {
  const ran = spawnSync(tool, probe, { stdio: 'ignore' });
  return ran.status === 0 ? false : skipReason(`${tool} is not installed here`);
}

/** The reason to skip, or the same throw under DEADMAN_REQUIRE_SYSTEMD=1: CI (root, every tool installed) must not skip. */
export function skipReason(reason: string): string {
  if (process.env.DEADMAN_REQUIRE_SYSTEMD === '1')
    throw new Error(`${reason} (DEADMAN_REQUIRE_SYSTEMD=1 forbids skipping)`);
  return reason;
}
