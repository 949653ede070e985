import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import TOML from '@iarna/toml';
import { configSchema } from '../../../lib/core/config/config.ts';
import { configJsonSchema } from '../../../lib/core/config/config-json-schema.ts';
import { KEY_DESCRIPTIONS } from '../../../lib/core/config/key-descriptions.ts';
import { parseSpan } from '../../../lib/core/time/duration.ts';
import { spanPattern } from '../../../lib/core/config/span-pattern.ts';
import { repoRoot } from '../../helpers/cli.ts';
import { SPAN_CORPUS } from '../../helpers/duration-corpus.ts';
import { schemaProblem } from '../../helpers/json-schema.ts';

/**
 * deadman.schema.json is what editors check deadman.toml against: it must be the schema
 * generated from the zod schema, describe every key, and accept and refuse what deadman does.
 */
const schema = configJsonSchema();

test('the shipped deadman.schema.json is the generated schema (regenerate all: npm run reference)', () => {
  const shipped = readFileSync(join(repoRoot, 'contrib', 'deadman.schema.json'), 'utf8');
  assert.equal(shipped, `${JSON.stringify(schema, null, 2)}\n`);
  assert.equal(schema.$id, 'urn:deadman:deadman.toml');
});

test('every property of the schema has a description, and every described key exists', () => {
  const missing: string[] = [];
  const walk = (node: Record<string, unknown>, at: string) => {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      if (typeof child.description !== 'string' || child.description === '') missing.push(`${at}${key}`);
      walk(child, `${at}${key}.`);
    }
    for (const nested of ['items', 'additionalProperties'])
      if (typeof node[nested] === 'object') walk(node[nested] as Record<string, unknown>, `${at}${nested}:`);
    for (const variants of ['oneOf', 'anyOf'])
      for (const variant of (node[variants] ?? []) as Array<Record<string, unknown>>) walk(variant, at);
  };
  walk(schema, '');
  assert.deepEqual(missing, []);
  const text = JSON.stringify(schema);
  for (const [key, line] of Object.entries(KEY_DESCRIPTIONS))
    assert.ok(text.includes(JSON.stringify(line).slice(1, -1)), `${key} is described but not in the schema`);
});

test('the duration pattern accepts exactly the spellings parseSpan reads (overflow aside)', () => {
  const pattern = new RegExp(spanPattern(false), 'u');
  let checked = 0;
  for (const text of [...SPAN_CORPUS, '5 x', '1h30', '12.34s.56', '\u000b5s', '1 h 30 min', 'infinity']) {
    const parsed = parseSpan(text);
    if (!parsed.ok && /out of range/.test(parsed.error)) continue;
    const readable = parsed.ok && parsed.usec !== 'infinity';
    assert.equal(pattern.test(text), readable, JSON.stringify(text));
    checked += 1;
  }
  assert.ok(checked >= 80, `checked ${checked}`);
  assert.ok(new RegExp(spanPattern(true), 'u').test(' off '), 'off where a key allows it');
});

/** Configs deadman accepts; each must pass the schema too. */
const GOOD = [
  '',
  readFileSync(join(repoRoot, 'deadman.toml.example'), 'utf8'),
  'inactivity = "1h 30min"\ntimeout = "off"\nhung_timeout = 90\npoll = "500ms"\nstop_grace = 1.5',
  'name = "fix-tests"\ncommand = ["codex", "exec", "--json", "go"]\ncwd = "/srv/repo"\nadapter = "codex"\non_stall = "exit"',
  'ready_port = 8080\nready_pattern = "listening on"\nready_timeout = "2 minutes"\nstdin = "inherit"',
  '[activity]\nwindow = "10s"\ncpu = 0\nio_bytes = 0\n[revive]\nmax_age = "infinity"\nmax_revives = 0\nsession_files = ["codex", "claude"]',
  '[notify]\nwebhook = ["https://example.com/hook"]\nhealthchecks = "https://hc-ping.com/x"\nntfy = "http://127.0.0.1/topic"\ncommand = ["/bin/page"]',
  '[[evidence]]\nkind = "file"\nroot = "/out"\nglob = "/out/*.csv"\nmax_age = "6h"\nwhen = "always"\ninterval = "1min"',
  '[[evidence]]\nkind = "command"\ncommand = ["true"]\ntimeout = "off"\n[[evidence]]\nkind = "http"\nurl = "http://127.0.0.1:8080/"\nstatus = "200"',
  '[jobs.nightly]\nrerun = ["/bin/export"]\ntimeout = "10min"\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/today.csv"',
  '[jobs.n]\nevidence = [{ kind = "command", command = ["true"] }]',
  '[jobs.n]\nunit = "backup.service"\nmanager = "user"\nmin_duration = "1min"\nmax_duration = "2h"\nevidence = [{ kind = "command", command = ["true"] }]',
  '[retention]\nmax_age = "30d"\nmax_runs = 1\n[redact]\npatterns = ["ACME-[0-9]{6}"]\n[diagnose]\ncommand = ["/bin/d"]\ntimeout = "30s"',
];

/** Configs deadman refuses and the schema can tell: each must fail the schema too. */
const BAD = [
  'inactivty = "30min"',
  'inactivity = "5x"',
  'inactivity = "12.34.56"',
  'inactivity = true',
  'inactivity = -5',
  'hung_timeout = "off"',
  'poll = "infinity"',
  'stop_grace = ""',
  'auto_recover = "yes"',
  'on_stall = "kill"',
  'stdin = "pipe"',
  'adapter = "gpt"',
  'ready_port = 0',
  'ready_port = 70000',
  'max_line_bytes = 10',
  'name = "a b"',
  'cwd = "relative/dir"',
  'state_dir = "var/lib"',
  'command = []',
  'command = "codex exec"',
  'ignore = "x"',
  '[activity]\nio_bytes = -1',
  '[activity]\nwindow = "5x"',
  '[revive]\nsession_files = ["gemini"]',
  '[revive]\nmax_revives = 1.5',
  '[revive]\nmax_revives = 21',
  '[notify]\nwebhook = "https://example.com"',
  '[notify]\nntfy = "ftp://example.com/x"',
  '[retention]\nmax_runs = 0',
  '[retention]\nevents_per_run = 5',
  '[redact]\nsecret = true',
  '[generic]\nturn_end = "x"',
  '[[evidence]]\nroot = "/out"\npath = "/out/x"',
  '[[evidence]]\nkind = "s3"\nroot = "/out"',
  '[[evidence]]\nkind = "file"\nroot = "/out"',
  '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/a"\nglob = "/out/*"',
  '[[evidence]]\nkind = "file"\nroot = "out"\npath = "/out/a"',
  '[[evidence]]\nkind = "command"',
  '[[evidence]]\nkind = "http"\nurl = "http://x/"\nstatus = "ok"',
  '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/a"\nwhen = "sometimes"',
  '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/out/a"\nmin_bytes = -1',
  '[jobs.nightly]\nrerun = ["/bin/x"]',
  '[jobs."bad name"]\nrerun = ["/bin/x"]\n[[jobs."bad name".evidence]]\nkind = "command"\ncommand = ["true"]',
];

/** Refused by deadman, accepted by the schema: what a regex cannot check. Each key's description says what deadman checks. */
const PARSER_ONLY = [
  'inactivity = "25d"',
  'poll = "50ms"',
  '[activity]\nwindow = "2h"',
  'ready_pattern = "("',
  'ignore = ["[a-"]',
  '[[evidence]]\nkind = "file"\nroot = "/out"\npath = "/etc/passwd"',
  'inactivity = "99999999999999999999s"',
  '[jobs.n]\nrerun = ["Run the backup script again by hand"]\nevidence = [{ kind = "command", command = ["true"] }]',
  '[jobs.n]\nrerun = ["/path/to/backup"]\nevidence = [{ kind = "command", command = ["true"] }]',
  '[jobs.n]\nmin_duration = "1min"\nevidence = [{ kind = "command", command = ["true"] }]',
];

function verdicts(text: string): { parser: boolean; schema: string | null } {
  const value = TOML.parse(text);
  return {
    parser: configSchema.safeParse(value).success,
    schema: schemaProblem(schema, JSON.parse(JSON.stringify(value))),
  };
}

test('schema and parser agree over a corpus of good and bad configs', () => {
  for (const text of GOOD) {
    const { parser, schema: problem } = verdicts(text);
    assert.equal(parser, true, `deadman refuses a good config: ${text.slice(0, 80)}`);
    assert.equal(problem, null, `the schema refuses a good config (${problem}): ${text.slice(0, 80)}`);
  }
  for (const text of BAD) {
    const { parser, schema: problem } = verdicts(text);
    assert.equal(parser, false, `deadman accepts a bad config: ${text}`);
    assert.notEqual(problem, null, `the schema accepts a bad config: ${text}`);
  }
  for (const text of PARSER_ONLY) {
    const { parser, schema: problem } = verdicts(text);
    assert.deepEqual([parser, problem], [false, null], `not a parser-only refusal: ${text}`);
  }
  assert.ok(GOOD.length + BAD.length + PARSER_ONLY.length >= 60);
});
