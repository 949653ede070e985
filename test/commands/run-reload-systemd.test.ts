import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';
import { tempDir, waitFor } from '../helpers/cli.ts';

/**
 * SIGHUP re-reads the config of a `deadman run` under a real user manager (issue 22.4): the
 * work is not touched (the same child PID, the unit active), a bad edit is refused and the old
 * config kept, and a changed threshold takes effect (a shorter inactivity now catches a stall
 * that the old one would have let run for ten minutes). Before, SIGHUP stopped the job for good.
 */

/** The PIDs whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

test('systemctl reload and kill -s HUP re-read the config; the child survives, a new inactivity takes effect', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const config = join(dir, 'job.toml');
  const quiet = join(dir, 'quiet');
  const good = 'inactivity = "10min"\npoll = "200ms"\nstop_grace = "1s"\n';
  writeFileSync(config, good);
  const unit = 'reloadable.service';
  // The child talks until told to be quiet, then stalls.
  await manager.writeUnit(
    unit,
    deadmanUnit({
      runArgs: ['--config', config, '--name', 'reloadable'],
      command: ['sh', '-c', `while [ ! -e ${quiet} ]; do echo tick; sleep 0.3; done; echo quiet; exec sleep 600`],
      env: { STATE_DIRECTORY: join(dir, 'state') },
      notifyAccess: 'all',
      extra: ['ExecReload=/bin/kill -HUP $MAINPID'],
    }),
  );
  assert.equal((await manager.systemctl('start', unit)).code, 0);
  const { MainPID } = await manager.waitFor(unit, (p) => p.ActiveState === 'active' && Number(p.MainPID) > 0, 10_000);
  const deadman = Number(MainPID);
  const [child] = await waitFor(
    () => (childrenOf(deadman).length > 0 ? childrenOf(deadman) : null),
    5_000,
    'the child',
  );
  const log = () => readFileSync(manager.logPath, 'utf8');

  writeFileSync(config, 'inactivity = "soon"\n');
  assert.equal((await manager.systemctl('reload', unit)).code, 0);
  await waitFor(
    () => /SIGHUP: config not reloaded, the running one stays: .*inactivity = "soon"/.test(log()),
    5_000,
    'the refusal',
  );

  writeFileSync(config, good.replace('10min', '3s'));
  assert.equal((await manager.systemctl('kill', '-s', 'HUP', '--kill-who=main', unit)).code, 0);
  await waitFor(
    () => /SIGHUP: re-read .*job\.toml: applied inactivity 10min → 3s/.test(log()),
    5_000,
    'the reload line',
  );
  const after = await manager.show(unit);
  assert.equal(after.ActiveState, 'active', JSON.stringify(after));
  assert.equal(after.MainPID, MainPID, 'deadman itself goes on');
  assert.deepEqual(childrenOf(deadman), [child], 'the same child, never signalled');
  assert.equal(after.NRestarts, '0');

  const quietAt = performance.now();
  writeFileSync(quiet, '');
  // 3s of silence, then the watchdog trigger: well before the old 10min.
  await manager.waitFor(unit, (p) => Number(p.NRestarts) >= 1 || p.Result === 'watchdog', 15_000);
  assert.ok(performance.now() - quietAt >= 2_500, 'not before the new inactivity');
  assert.match(log(), /OUTPUT_INACTIVITY|no output for 3s/);
  await manager.systemctl('stop', unit);
});
