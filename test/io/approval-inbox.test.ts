import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvalInbox, approvalRequestPath, writeApprovalRequest } from '../../lib/io/approval-inbox.ts';
import { tempDir } from '../helpers/cli.ts';

const request = { incident_id: 7, decision: 'approve' as const, by: 'alice (uid 1000)', at: '2026-12-01T10:00:00.000Z' };

test('an answer is taken once, and gone after', (t) => {
  const dir = tempDir(t);
  const warnings: string[] = [];
  const inbox = approvalInbox(dir, (m) => warnings.push(m));
  assert.equal(inbox.take(7), null, 'nobody answered yet');
  const path = writeApprovalRequest(dir, request);
  assert.equal(path, approvalRequestPath(dir, 7));
  assert.deepEqual(inbox.take(7), request);
  assert.equal(existsSync(path), false);
  assert.equal(inbox.take(7), null);
  assert.deepEqual(warnings, []);
});

test('a file of another user, a symlink, garbage or an answer for another incident is refused and removed', (t) => {
  const dir = tempDir(t);
  const warnings: string[] = [];
  const inbox = approvalInbox(dir, (m) => warnings.push(m));
  mkdirSync(join(dir, 'approvals'), { recursive: true });
  const path = approvalRequestPath(dir, 7);
  const cases: Array<[string, () => void]> = [
    ['garbage', () => writeFileSync(path, 'yes please')],
    ['another incident', () => writeFileSync(path, JSON.stringify({ ...request, incident_id: 8 }))],
    ['a symlink', () => {
      writeFileSync(join(dir, 'elsewhere.json'), JSON.stringify(request));
      symlinkSync(join(dir, 'elsewhere.json'), path);
    }],
  ];
  if (process.getuid?.() === 0) cases.push(['another user\'s file', () => { writeFileSync(path, JSON.stringify(request)); chownSync(path, 12345, 12345); }]);
  for (const [label, plant] of cases) {
    plant();
    assert.equal(inbox.take(7), null, label);
    assert.equal(existsSync(path), false, `${label}: removed`);
  }
  assert.equal(warnings.length, cases.length);
  assert.match(warnings[0]!, /^refused .*approvals\/7\.json: not a request by deadman approve\/deny/);
});
