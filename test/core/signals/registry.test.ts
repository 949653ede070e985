import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONSULTABLE_SIGNALS,
  DETECTION_ORDER,
  nextPassAfter,
  SIGNAL_KINDS,
  SIGNALS,
  signalRow,
  stallKindOf,
  stallStatus,
} from '../../../lib/core/signals/registry.ts';
import { ACTIONS, type RecoveryAction } from '../../../lib/core/signals/actions.ts';
import { DIAGNOSIS_ACTIONS } from '../../../lib/core/signals/actions.ts';
import { NEXT_PASS_OUTCOMES } from '../../../lib/core/signals/signal-row.ts';

/** The registry's rows agree with each other: what one row names, another row (or the action table) has. */

test('every kind with a detector is run once, in the detection order; the others name where they are raised', () => {
  const detected = SIGNAL_KINDS.filter((kind) => signalRow(kind)!.detector !== null);
  assert.deepEqual([...DETECTION_ORDER].sort(), detected.sort());
  assert.equal(new Set(DETECTION_ORDER).size, DETECTION_ORDER.length);
  for (const kind of SIGNAL_KINDS) assert.ok(signalRow(kind)!.raisedBy.length > 0, kind);
});

test("each ending action enters the stall of exactly one kind, and only ending actions are any kind's endedBy", () => {
  const ending = (Object.keys(ACTIONS) as RecoveryAction[]).filter((action) => 'ends' in ACTIONS[action]);
  for (const action of ending) {
    assert.equal(SIGNAL_KINDS.filter((kind) => signalRow(kind)!.endedBy === action).length, 1, action);
    assert.ok(stallKindOf(action));
  }
  for (const kind of SIGNAL_KINDS) {
    const by = signalRow(kind)!.endedBy;
    if (by) assert.ok(ending.includes(by), `${kind} is ended by ${by}, which ends nothing`);
  }
});

test('a stall action of its own belongs to one kind, says its STATUS words, and a next pass follows only an outcome of its own', () => {
  const own = SIGNAL_KINDS.map((kind) => signalRow(kind)!.stall).filter(
    (stall) => stall !== 'configured' && stall !== 'exit',
  );
  assert.equal(new Set(own).size, own.length);
  for (const stall of own) assert.ok(stallStatus(stall)?.word, stall);
  assert.equal(stallStatus('withhold'), undefined);
  assert.equal(stallStatus('exit'), undefined);
  for (const kind of SIGNAL_KINDS) {
    const row = signalRow(kind)!;
    if (row.nextPass) assert.ok(typeof row.end === 'object' && nextPassAfter(row.end.outcome) === row.nextPass, kind);
    // Readers tell a pass between two others by this table alone (core/status/run-presence.ts).
    const end = typeof row.end === 'object' ? row.end.outcome : undefined;
    if (row.nextPass) assert.equal(end, NEXT_PASS_OUTCOMES[row.nextPass], kind);
    else assert.ok(!(Object.values(NEXT_PASS_OUTCOMES) as string[]).includes(end ?? ''), kind);
  }
  const followed = SIGNAL_KINDS.flatMap((kind) => signalRow(kind)!.nextPass ?? []);
  assert.deepEqual(new Set(followed), new Set(Object.keys(NEXT_PASS_OUTCOMES)));
  assert.equal(nextPassAfter('stalled'), undefined);
  assert.equal(nextPassAfter('completed'), undefined);
});

test('a consulted kind allows only contract actions, and its own diagnosis among them; the error codes are distinct', () => {
  assert.deepEqual(
    [...CONSULTABLE_SIGNALS],
    ['HUNG_PROCESS', 'REPEATED_FAILURE', 'NO_PROGRESS', 'SESSION_BUDGET_RISK'],
  );
  for (const kind of CONSULTABLE_SIGNALS) {
    const { consult, diagnosis } = signalRow(kind)!;
    for (const action of Object.keys(consult!))
      assert.ok((DIAGNOSIS_ACTIONS as readonly string[]).includes(action), `${kind}: ${action}`);
    assert.ok(Object.values(consult!).includes(diagnosis.action), kind);
  }
  const codes = SIGNAL_KINDS.map((kind) => SIGNALS[kind].errorCode);
  assert.equal(new Set(codes).size, codes.length);
});

test("a kind this deadman does not know (a newer one's, read back from the store) has no row", () => {
  assert.equal(signalRow('SOMETHING_NEWER'), undefined);
  assert.equal(signalRow('toString'), undefined);
});
