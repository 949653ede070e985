import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loopbackSink } from '../helpers/loopback-sink.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/** A job whose command claim is dead until `<dir>/NAME.ok` exists. */
const job = (dir: string, name: string, rerun = true) => `
[jobs.${name}]
${rerun ? 'rerun = ["/bin/true"]' : ''}
[[jobs.${name}.evidence]]
kind = "command"
command = ["test", "-e", "${dir}/${name}.ok"]
`;

function setup(t: { after(fn: () => void): void }, toml: (dir: string) => string) {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, toml(dir));
  return {
    dir,
    config,
    check: (args: string[] = []) =>
      runDeadman(['check', ...args, '--config', config, '--state-dir', join(dir, 'state')], {
        cwd: dir,
        detached: true,
      }),
  };
}

test('two dead jobs alert the webhook once each; the same states again send nothing; one recovering sends alive again', async (t) => {
  const sink = await loopbackSink(t);
  const s = setup(t, (dir) => `[notify]\nwebhook = ["${sink.url}/hook"]\n${job(dir, 'export')}${job(dir, 'backup')}`);
  const first = await s.check();
  assert.equal(first.code, 1, first.stderr);
  const alerts = sink.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  assert.deepEqual(alerts.map((a) => [a.name, a.event, a.source, a.outcome]).sort(), [
    ['backup', 'fail', 'check', 'dead'],
    ['export', 'fail', 'check', 'dead'],
  ]);
  assert.match(String(alerts[0]!.reason), /^test exited 1$/);
  assert.equal(first.stderr.trim().split('\n').length, 2, first.stderr);
  assert.match(
    first.stderr,
    /^deadman: alert "deadman export on .*: fail · job dead · test exited 1": sent to webhook$/m,
  );

  const again = await s.check();
  assert.equal(again.code, 1);
  assert.equal(sink.received.length, 2, 'the same state is never alerted twice');
  assert.equal(again.stderr, '');

  writeFileSync(join(s.dir, 'backup.ok'), '');
  const recovered = await s.check();
  assert.equal(recovered.code, 1, 'export is still dead');
  assert.equal(sink.received.length, 3);
  const back = JSON.parse(sink.received[2]!.body) as Record<string, unknown>;
  assert.deepEqual(
    [back.name, back.event, back.outcome, back.reason],
    ['backup', 'success', 'alive', 'alive again (was dead)'],
  );
  assert.deepEqual(
    Object.keys(JSON.parse(readFileSync(join(s.dir, 'state', 'check', 'alerted.json'), 'utf8')) as object),
    ['export'],
  );
  assert.equal((await s.check()).code, 1);
  assert.equal(sink.received.length, 3);
});

test('an alert a sink refused is not recorded, so the next check sends it again', async (t) => {
  const sink = await loopbackSink(t, { '/hook': [500, ''] });
  const s = setup(t, (dir) => `[notify]\nwebhook = ["${sink.url}/hook"]\n${job(dir, 'export')}`);
  const first = await s.check();
  assert.equal(first.code, 1);
  assert.match(first.stderr, /FAILED webhook/);
  await s.check();
  assert.equal(sink.received.length, 2);
});

test('a job without rerun is checked, never fixed, and never breaks the others', async (t) => {
  const s = setup(t, (dir) => `${job(dir, 'report', false)}${job(dir, 'export')}`);
  writeFileSync(join(s.dir, 'export.ok'), '');
  const result = await s.check();
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.deepEqual(result.stdout.trimEnd().split('\n'), [
    'DEAD   report',
    '       test exited 1',
    '2 checked | 1 green and dead | 1 alive',
  ]);
  const fixed = await s.check(['--fix', '--yes']);
  assert.equal(fixed.code, 1);
  assert.match(
    fixed.stdout,
    /^ {7}not fixed: report has no rerun; it is checked, never fixed \(add rerun = \[\.\.\.\] to \[jobs\.report\]\)$/m,
  );
  const json = JSON.parse((await s.check(['--json'])).stdout) as { jobs: Array<{ job: string; rerun: unknown }> };
  assert.deepEqual(
    json.jobs.map((j) => [j.job, j.rerun]),
    [
      ['report', null],
      ['export', ['/bin/true']],
    ],
  );
});

test('a rerun that is a sentence or a placeholder is refused at load by check and config check, one line each', async (t) => {
  const s = setup(
    t,
    (dir) => `${job(dir, 'ok')}
[jobs.prose]
rerun = ["Run the backup script again by hand"]
[[jobs.prose.evidence]]
kind = "command"
command = ["true"]
[jobs.template]
rerun = ["/path/to/logrotate"]
[[jobs.template.evidence]]
kind = "command"
command = ["true"]
`,
  );
  writeFileSync(join(s.dir, 'ok.ok'), '');
  const result = await s.check();
  assert.equal(result.code, 78);
  const lines = result.stdout.trimEnd().split('\n');
  assert.deepEqual(
    [lines[0], lines[2], lines.at(-1)],
    ['REFUSED prose', 'REFUSED template', '1 checked | 0 green and dead | 1 alive | 2 refused'],
  );
  assert.match(
    lines[1]!,
    /jobs\.prose\.rerun = \["Run the backup script again by hand"\]: reads as an English sentence, not a command/,
  );
  assert.match(lines[3]!, /jobs\.template\.rerun = \["\/path\/to\/logrotate"\]: holds a placeholder \(\/path\/to in/);
  const config = await runDeadman(['config', 'check', '--quiet', '--config', s.config], {
    env: { ...process.env, STATE_DIRECTORY: join(s.dir, 'state') },
  });
  assert.equal(config.code, 78);
  assert.equal(config.stdout.split('\n').filter((l) => l.startsWith('problem:')).length, 2, config.stdout);
});
