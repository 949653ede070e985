import { spawnSync } from 'node:child_process';
import { cliBinary, type Cli } from './clis.ts';

/**
 * A `skip` value for a real-agent test: false when the loopback-only namespace can be made and
 * the pinned CLI is installed, else the reason. DEADMAN_REQUIRE_AGENTS=1 (.ci/run sets it) makes
 * the reason a failure, so a CI run cannot pass with the real agents never run.
 */
export function skipUnlessAgent(cli: Cli): false | string {
  const reason = missing(cli);
  if (reason === null) return false;
  if (process.env.DEADMAN_REQUIRE_AGENTS === '1')
    throw new Error(`${reason} (DEADMAN_REQUIRE_AGENTS=1 forbids skipping)`);
  return reason;
}

function missing(cli: Cli): string | null {
  if (process.platform !== 'linux') return 'the real-agent tests need Linux network namespaces';
  const probe = spawnSync('unshare', ['-n', '--', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0)
    return 'cannot make a loopback-only network namespace here (`unshare -n` as root and `ip` are needed)';
  if (cliBinary(cli) === null)
    return `the pinned ${cli} CLI is not installed (run test/agents/install-clis.sh, or npm run test:agents)`;
  return null;
}
