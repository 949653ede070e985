import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvalInbox, approvalAnswerPath, writeApprovalAnswer } from '../../../lib/io/approvals/approval-inbox.ts';
import { tempDir } from '../../helpers/cli.ts';

const TOKEN = '0f8b5d2e-6c1a-4e7b-9a3d-2b4c6d8e0f12';
const OTHER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const request = {
  run_token: TOKEN,
  incident_id: 7,
  decision: 'approve' as const,
  by: 'alice (uid 1000)',
  at: '2026-12-01T10:00:00.000Z',
};
const pathsOf = (dir: string) => ({
  stateDir: dir,
  database: join(dir, 'deadman.db'),
  markerDir: join(dir, 'markers'),
});

test('an answer is taken once, and gone after', (t) => {
  const dir = tempDir(t);
  const warnings: string[] = [];
  const inbox = approvalInbox(pathsOf(dir), TOKEN, (m) => warnings.push(m));
  assert.equal(inbox.take(7), null, 'nobody answered yet');
  const path = writeApprovalAnswer(dir, request);
  assert.equal(path, approvalAnswerPath(dir, TOKEN, 7));
  assert.deepEqual(inbox.take(7), request);
  assert.equal(existsSync(path), false);
  assert.equal(inbox.take(7), null);
  assert.deepEqual(warnings, []);
});

test('a file of another user, a symlink, garbage or an answer for another incident is refused and removed', (t) => {
  const dir = tempDir(t);
  const warnings: string[] = [];
  const inbox = approvalInbox(pathsOf(dir), TOKEN, (m) => warnings.push(m));
  mkdirSync(join(dir, 'approvals'), { recursive: true });
  const path = approvalAnswerPath(dir, TOKEN, 7);
  const cases: Array<[string, () => void]> = [
    ['garbage', () => writeFileSync(path, 'yes please')],
    ['another incident', () => writeFileSync(path, JSON.stringify({ ...request, incident_id: 8 }))],
    ['another run', () => writeFileSync(path, JSON.stringify({ ...request, run_token: OTHER }))],
    ['no run named', () => writeFileSync(path, JSON.stringify({ ...request, run_token: undefined }))],
    [
      'a symlink',
      () => {
        writeFileSync(join(dir, 'elsewhere.json'), JSON.stringify(request));
        symlinkSync(join(dir, 'elsewhere.json'), path);
      },
    ],
  ];
  if (process.getuid?.() === 0)
    cases.push([
      "another user's file",
      () => {
        writeFileSync(path, JSON.stringify(request));
        chownSync(path, 12345, 12345);
      },
    ]);
  for (const [label, plant] of cases) {
    plant();
    assert.equal(inbox.take(7), null, label);
    assert.equal(existsSync(path), false, `${label}: removed`);
  }
  assert.equal(warnings.length, cases.length);
  assert.match(
    warnings[0]!,
    /^refused .*approvals\/0f8b5d2e-[-0-9a-f]+\.7\.json: not a request by deadman approve\/deny/,
  );
});

test('an answer for another run with the same incident number is never seen by this run', (t) => {
  const dir = tempDir(t);
  const inbox = approvalInbox(pathsOf(dir), TOKEN, () => assert.fail('nothing to refuse'));
  const theirs = writeApprovalAnswer(dir, { ...request, run_token: OTHER });
  assert.equal(inbox.take(7), null);
  assert.equal(existsSync(theirs), true, 'left for the run it names');
});

test("an answer left at the run's end expires with it; another run's stays", (t) => {
  const dir = tempDir(t);
  const inbox = approvalInbox(pathsOf(dir), TOKEN, () => {});
  const mine = writeApprovalAnswer(dir, request);
  const theirs = writeApprovalAnswer(dir, { ...request, run_token: OTHER });
  inbox.discard();
  assert.deepEqual([existsSync(mine), existsSync(theirs)], [false, true]);
});

test('the printed answer names the place when a plain command would look elsewhere', (t) => {
  const dir = tempDir(t);
  const inbox = approvalInbox({ ...pathsOf(dir), database: join(dir, 'a b.db') }, TOKEN, () => {});
  assert.deepEqual(inbox.commands(3), {
    approve: `deadman approve 3 --state-dir ${dir} --database '${join(dir, 'a b.db')}'`,
    deny: `deadman deny 3 --state-dir ${dir} --database '${join(dir, 'a b.db')}'`,
  });
});
