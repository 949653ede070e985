import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configSchema } from '../../../lib/core/config/config.ts';

const file = { kind: 'file', root: '/out', path: '/out/a.csv' };
const parse = (job: Record<string, unknown>) =>
  configSchema.safeParse({ jobs: { nightly: { rerun: ['/bin/true'], evidence: [file], ...job } } });
const problems = (job: Record<string, unknown>) => {
  const result = parse(job);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

test('container and engine are accepted on a job of file claims', () => {
  const result = parse({ container: 'backup-1', engine: 'podman' });
  assert.ok(result.success);
  assert.equal(result.data.jobs.nightly!.container, 'backup-1');
  assert.ok(parse({ container: '3f2a9c' }).success, 'an id');
});

test('a name that could be read as an option, or is not a name, is refused', () => {
  for (const name of ['--privileged', '-u0', '', 'a b', 'a/b', '.x']) {
    assert.match(
      problems({ container: name }).join('\n'),
      /jobs\.nightly\.container: must be a container name or id/,
      name,
    );
  }
  assert.match(problems({ container: 'c', engine: 'lxc' }).join('\n'), /jobs\.nightly\.engine/);
  assert.deepEqual(problems({ engine: 'docker' }), [
    'jobs.nightly.engine: is read only with "container"; add container = "NAME" or remove engine',
  ]);
});

test('command and http claims of a container job are refused at load, one line each', () => {
  const found = problems({
    container: 'app',
    evidence: [file, { kind: 'command', command: ['/bin/true'] }, { kind: 'http', url: 'http://127.0.0.1:8080/' }],
  });
  assert.deepEqual(
    found.map((line) => line.split(':')[0]),
    ['jobs.nightly.evidence.1.kind', 'jobs.nightly.evidence.2.kind'],
  );
  assert.match(
    found[0]!,
    /"command" cannot be observed inside container app: .*move this claim to a job without "container"/,
  );
});
