import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnlessPostgres } from './postgres.ts';
import { tempDir } from './cli.ts';
import { withEnv } from './with-env.ts';

/** Where Postgres is absent the tests skip with the reason; under .ci/run (DEADMAN_REQUIRE_POSTGRES=1) they fail instead. */

test('without psql the Postgres tests skip, saying why', (t) => {
  assert.equal(
    withEnv({ PATH: tempDir(t), DEADMAN_REQUIRE_POSTGRES: undefined }, skipUnlessPostgres),
    'psql is not installed here',
  );
});

test('with DEADMAN_REQUIRE_POSTGRES=1 the same absence is a failure, not a skip', (t) => {
  assert.throws(
    () => withEnv({ PATH: tempDir(t), DEADMAN_REQUIRE_POSTGRES: '1' }, skipUnlessPostgres),
    /DEADMAN_REQUIRE_POSTGRES=1 forbids skipping/,
  );
});
