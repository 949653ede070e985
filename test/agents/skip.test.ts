import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/cli.ts';
import { skipUnlessAgent } from './harness/skip.ts';
import { withEnv } from '../helpers/with-env.ts';

/**
 * Where the pinned CLIs are missing the real-agent tests skip and say why; under
 * DEADMAN_REQUIRE_AGENTS=1 (what .ci/run sets) the same absence fails instead.
 */

test('a CLI missing from the cache: a skip that names it and the install command', (t) => {
  const reason = withEnv({ DEADMAN_AGENTS_CACHE: tempDir(t), DEADMAN_REQUIRE_AGENTS: undefined }, () =>
    skipUnlessAgent('codex'),
  );
  assert.equal(typeof reason, 'string');
  assert.match(
    reason as string,
    /the pinned codex CLI is not installed \(run test\/agents\/install-clis\.sh, or npm run test:agents\)|loopback-only network namespace/,
  );
});

test('with DEADMAN_REQUIRE_AGENTS=1 the same absence is a failure, not a skip', (t) => {
  assert.throws(
    () => withEnv({ DEADMAN_AGENTS_CACHE: tempDir(t), DEADMAN_REQUIRE_AGENTS: '1' }, () => skipUnlessAgent('claude')),
    /DEADMAN_REQUIRE_AGENTS=1 forbids skipping/,
  );
});
