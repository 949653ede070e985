import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';

/**
 * The generated unit's ExecStopPost=, under a real user manager: a deadman SIGKILLed (nothing it
 * could catch) leaves a textfile saying "running, healthy", and no reader is run by the test;
 * systemd's ExecStopPost= settles the run at once, recording what systemd says ended it
 * ($SERVICE_RESULT, $EXIT_STATUS), and the unit's result stays systemd's. After a clean exit it
 * changes nothing and is green itself (it answers with systemd's $SERVICE_RESULT).
 */

const node = process.execPath;

function sample(text: string, name: string, run: string): number | undefined {
  return parsePrometheus(text).samples.find((s) => s.name === name && s.labels.name === run)?.value;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function install(
  manager: UserManager,
  dir: string,
  name: string,
  command: string[],
  timing = ['--inactivity', '30s', '--watchdog', '5s'],
): Promise<string> {
  // RestartSec= far beyond the test: the next run must not be what rewrites the file.
  const result = await runDeadman(
    [
      'install',
      '--user',
      '--unit-dir',
      manager.unitDir,
      '--name',
      name,
      '--config',
      join(dir, 'deadman.toml'),
      '--state-dir',
      join(dir, 'state'),
      ...timing,
      '--restart-sec',
      '10min',
      '--',
      ...command,
    ],
    { cwd: dir },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal((await manager.systemctl('daemon-reload')).code, 0);
  return `deadman-${name}.service`;
}

test('ExecStopPost= of a generated unit settles a run whose deadman was SIGKILLed or aborted by the watchdog', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const collector = join(dir, 'textfile');
  mkdirSync(collector);
  writeFileSync(
    join(dir, 'deadman.toml'),
    `poll = "250ms"\n[metrics]\ntextfile = "${collector}/deadman-{name}.prom"\n`,
  );
  const database = join(dir, 'state', 'deadman.db');
  const log = () => readFileSync(manager.logPath, 'utf8').split('\n').slice(-15).join('\n');

  await t.test(
    'SIGKILL of deadman alone: the textfile says not running, not healthy, the run reads killed',
    async (t) => {
      const unit = await install(manager, dir, 'killed', [node, '-e', 'setInterval(() => console.log("tick"), 200)']);
      assert.equal((await manager.systemctl('start', unit)).code, 0, log());
      const file = join(collector, 'deadman-killed.prom');
      await waitFor(
        () =>
          sample(readOrEmpty(file), 'deadman_run_running', 'killed') === 1 &&
          sample(readOrEmpty(file), 'deadman_run_healthy', 'killed') === 1,
        15_000,
        'a textfile saying running and healthy',
      );

      const killedAt = performance.now();
      assert.equal((await manager.systemctl('kill', '-s', 'KILL', '--kill-who=main', unit)).code, 0);
      const settled = await waitFor(
        () => {
          const text = readOrEmpty(file);
          return sample(text, 'deadman_run_running', 'killed') === 0 &&
            sample(text, 'deadman_run_healthy', 'killed') === 0
            ? text
            : null;
        },
        10_000,
        `the textfile to say not running, not healthy (last: ${readOrEmpty(file)}) ${log()}`,
      );
      assert.ok(settled);
      t.diagnostic(`textfile settled ${(performance.now() - killedAt).toFixed(0)} ms after the SIGKILL`);
      assert.deepEqual(
        query<{ outcome: string; ended: number; lost: number; signal: string }>(
          database,
          'SELECT outcome, ended_at IS NOT NULL AS ended, lost, signal FROM runs WHERE name = ?',
          'killed',
        ).map((r) => ({ ...r })),
        [{ outcome: 'lost', ended: 1, lost: 1, signal: 'SIGKILL' }],
        'the database says it ended without its deadman recording it, killed by what systemd saw',
      );
      const status = await runDeadman(['status', '--json', '--state-dir', join(dir, 'state')], { cwd: dir });
      const row = (JSON.parse(status.stdout) as Array<{ name: string; state: string; reason: string }>).find(
        (r) => r.name === 'killed',
      );
      assert.deepEqual(
        [row?.state, row?.reason],
        ['killed', 'deadman ended without recording an exit; systemd says signal (SIGKILL)'],
        status.stdout,
      );
      const props = await manager.show(unit, ['Result', 'ActiveState', 'SubState']);
      assert.equal(
        props.Result,
        'signal',
        `ExecStopPost= hides nothing of the unit's result: ${JSON.stringify(props)}`,
      );
      await manager.systemctl('stop', unit);
    },
  );

  await t.test(
    'a stall the watchdog ended (SIGABRT): the textfile says not running, the run stalled (watchdog)',
    async () => {
      const unit = await install(
        manager,
        dir,
        'aborted',
        ['/bin/sh', '-c', 'echo started; exec sleep 600'],
        ['--inactivity', '2s', '--watchdog', '2s'],
      );
      assert.equal((await manager.systemctl('start', unit)).code, 0, log());
      await manager.waitFor(unit, (p) => p.Result === 'watchdog', 20_000);
      const file = join(collector, 'deadman-aborted.prom');
      await waitFor(
        () => sample(readOrEmpty(file), 'deadman_run_running', 'aborted') === 0,
        10_000,
        `the textfile to say not running (last: ${readOrEmpty(file)})`,
      );
      assert.equal(sample(readOrEmpty(file), 'deadman_run_healthy', 'aborted'), 0);
      assert.deepEqual(
        query<{ outcome: string; signal: string; lost: number }>(
          database,
          'SELECT outcome, signal, lost FROM runs WHERE name = ?',
          'aborted',
        ).map((r) => ({ ...r })),
        [{ outcome: 'stalled', signal: 'watchdog', lost: 1 }],
      );
      await manager.systemctl('stop', unit);
    },
  );

  await t.test(
    'a deadman frozen before it recorded a stall, aborted by the watchdog: the run reads lost, by watchdog (systemd said so)',
    async () => {
      const unit = await install(
        manager,
        dir,
        'frozen',
        [node, '-e', 'setInterval(() => console.log("tick"), 200)'],
        ['--inactivity', '30s', '--watchdog', '2s'],
      );
      assert.equal((await manager.systemctl('start', unit)).code, 0, log());
      // Stopped, deadman pings no more and records nothing; systemd follows its abort (SIGABRT) with a SIGCONT.
      assert.equal((await manager.systemctl('kill', '-s', 'STOP', '--kill-who=main', unit)).code, 0);
      await manager.waitFor(unit, (p) => p.Result === 'watchdog', 20_000);
      const settled = await waitFor(
        () =>
          query<{ outcome: string; signal: string; lost: number }>(
            database,
            'SELECT outcome, signal, lost FROM runs WHERE name = ? AND ended_at IS NOT NULL',
            'frozen',
          ).map((r) => ({ ...r }))[0],
        15_000,
        `the run to be settled ${log()}`,
      );
      assert.deepEqual(settled, { outcome: 'lost', signal: 'watchdog', lost: 1 });
      await manager.systemctl('stop', unit);
    },
  );

  await t.test('a clean exit: ExecStopPost= finds nothing to settle and the unit succeeds', async () => {
    const unit = await install(manager, dir, 'clean', [node, '-e', 'console.log("done")']);
    // Enabled, as people run it: default.target keeps it loaded, so systemctl status still shows how ExecStopPost= ended.
    assert.equal((await manager.systemctl('enable', unit)).code, 0);
    await manager.systemctl('start', unit);
    const props = await manager.waitFor(
      unit,
      (p) => p.ActiveState === 'inactive' || p.ActiveState === 'failed',
      15_000,
    );
    assert.deepEqual([props.ActiveState, props.Result], ['inactive', 'success'], log());
    assert.deepEqual(
      query<{ outcome: string; exit_code: number }>(
        database,
        'SELECT outcome, exit_code FROM runs WHERE name = ?',
        'clean',
      ).map((r) => ({ ...r })),
      [{ outcome: 'completed', exit_code: 0 }],
    );
    assert.equal(
      sample(readFileSync(join(collector, 'deadman-clean.prom'), 'utf8'), 'deadman_last_exit_code', 'clean'),
      0,
    );
    // Green: no `ExecStopPost=… (code=exited, status=1/FAILURE)` in systemctl status after a clean exit.
    const status = await manager.status(unit);
    assert.match(status, /ExecStopPost=.* health --quiet --settle .*\(code=exited, status=0\/SUCCESS\)/, status);
    assert.doesNotMatch(status, /FAILURE/, status);
  });

  await t.test("a failed exit: ExecStopPost= says so (status=1), and the unit's result stays systemd's", async () => {
    const unit = await install(manager, dir, 'failed', [node, '-e', 'process.exit(3)']);
    await manager.systemctl('start', unit);
    const props = await manager.waitFor(unit, (p) => p.Result === 'exit-code', 15_000);
    assert.equal(props.ExecMainStatus, '3');
    const status = await waitFor(
      async () => {
        const text = await manager.status(unit);
        return /ExecStopPost=.*\(code=exited/.test(text) ? text : null;
      },
      15_000,
      'ExecStopPost= to have run',
    );
    assert.match(status, /ExecStopPost=.* health --quiet --settle .*\(code=exited, status=1\/FAILURE\)/, status);
    await manager.systemctl('stop', unit);
  });
});
