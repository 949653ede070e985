import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { PLANTED, PLANTED_TEXT } from '../helpers/planted-secrets.ts';

/**
 * Secrets the work sees — in its environment, its argv, a hung tool's argv and its output —
 * appear nowhere deadman writes: no table of the database, no report (text or JSON), no
 * incident list, no status, no journal line, not the diagnostician's input.
 */

const SECRETS = Object.entries(PLANTED);

function leaks(where: string, text: string): string[] {
  return SECRETS.filter(([, secret]) => text.includes(secret)).map(([shape]) => `${shape} in ${where}`);
}

function everyTable(database: string): string {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    return tables
      .map(({ name }) => `${name}: ${JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())}`)
      .join('\n');
  } finally {
    db.close();
  }
}

test('planted secrets appear nowhere: database, report, incidents, status, journal, diagnostician input', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const diagnostician = join(dir, 'diagnose.sh');
  writeFileSync(
    diagnostician,
    `#!/bin/sh\ncat > ${dir}/incident.json\necho '{"action":"TERMINATE_DESCENDANT_PROCESS","rationale":"idle"}'\n`,
    { mode: 0o755 },
  );
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(dir)}\n[diagnose]\ncommand = [${JSON.stringify(diagnostician)}]\ntimeout = "5s"\n`,
  );
  // The root prints everything, then runs a tool that hangs with secrets in its argv; once
  // deadman kills that tool the root finishes.
  const script = `printf '%s\\n' "$PLANTED_TEXT"; echo "$MY_SERVICE_TOKEN"; setsid sh -c 'sleep 30; true' hung-tool "--password=${PLANTED.pairPassword}" "${PLANTED.anthropic}" "https://u:${PLANTED.urlPassword}@h/x"; echo done`;
  const env = {
    ...process.env,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: '',
    WATCHDOG_USEC: '',
    JOURNAL_STREAM: '',
    PWD: dir,
    PLANTED_TEXT,
    MY_SERVICE_TOKEN: PLANTED.envSecret,
  };
  const run = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      database,
      '--adapter',
      'generic',
      '--auto-recover',
      '--hung-timeout',
      '1s',
      '--inactivity',
      '20s',
      '--poll',
      '200ms',
      '--stop-grace',
      '1s',
      '--',
      'sh',
      '-c',
      script,
      'root',
      `token=${PLANTED.github}`,
      PLANTED.openai,
    ],
    { env, cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /HUNG_PROCESS: /);
  // Passthrough is the child's own output, byte for byte: deadman does not edit what it relays.
  assert.ok(run.stdout.includes(PLANTED.anthropic));

  const readerEnv = { ...process.env, DEADMAN_CONFIG: '', MY_SERVICE_TOKEN: '' };
  const read = (args: string[]) =>
    runDeadman([...args, '--config', config, '--database', database], { env: readerEnv, cwd: dir });
  const outputs = await Promise.all(
    [
      ['report', 'latest'],
      ['report', 'latest', '--json'],
      ['incidents'],
      ['incidents', '--json'],
      ['status', '--json'],
    ].map(read),
  );
  for (const out of outputs) assert.equal(out.code, 0, out.stderr);
  assert.match(outputs[0]!.stdout, /HUNG_PROCESS/);

  const found = [
    ...leaks('the journal lines (stderr)', run.stderr),
    ...leaks('the database', everyTable(database)),
    ...leaks('the diagnostician input', readFileSync(join(dir, 'incident.json'), 'utf8')),
    ...outputs.flatMap((out, i) => leaks(`reader output #${i}`, out.stdout + out.stderr)),
  ];
  assert.deepEqual(found, []);
  assert.match(everyTable(database), /\[REDACTED\]/);
  // Only secrets go: the run's directory (also $PWD) and command are still there to read.
  assert.ok(everyTable(database).includes(`"cwd":${JSON.stringify(dir)}`), 'the cwd was kept');
});
