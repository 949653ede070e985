import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../lib/core/incident/diagnosis.ts';
import { diagnose } from '../../../lib/core/incident/default-diagnosis.ts';
import { parseDiagnosis, type ExternalDiagnosis } from '../../../lib/core/incident/diagnosis-schema.ts';

const VALID: ExternalDiagnosis = {
  classification: 'HUNG_PROCESS',
  confidence: 0.8,
  recommended_action: 'TERMINATE_DESCENDANT_PROCESS',
  rationale: 'sleep is waiting on nothing',
  evidence_ids: ['proc_001'],
  guidance: null,
  requires_human_approval: false,
};
const IDS = new Set(['proc_001', 'evt_001']);
const RULES = diagnose('HUNG_PROCESS');

test('reconcile: an answer is taken only when it matches the signal, its evidence and the allowed actions; each refusal says why', () => {
  const table: Array<{ why: string; answer: Partial<ExternalDiagnosis>; action: string; refused: RegExp | null }> = [
    { why: 'a valid kill', answer: {}, action: 'TERMINATE_DESCENDANT_PROCESS', refused: null },
    {
      why: 'observe leaves it to a person',
      answer: { recommended_action: 'OBSERVE' },
      action: 'REPORT',
      refused: null,
    },
    {
      why: 'halt stops the run for a person',
      answer: { recommended_action: 'HALT_AND_ESCALATE' },
      action: 'HALT_AND_ESCALATE',
      refused: null,
    },
    {
      why: 'a halt that asks for approval is a report',
      answer: { recommended_action: 'HALT_AND_ESCALATE', requires_human_approval: true },
      action: 'REPORT',
      refused: null,
    },
    {
      why: 'asking for approval turns a kill into a report',
      answer: { requires_human_approval: true },
      action: 'REPORT',
      refused: null,
    },
    {
      why: 'another classification',
      answer: { classification: 'OUTPUT_INACTIVITY' },
      action: 'TERMINATE_DESCENDANT_PROCESS',
      refused: /classified the incident as OUTPUT_INACTIVITY, but the open signal is HUNG_PROCESS/,
    },
    {
      why: 'evidence ids outside the packet',
      answer: { evidence_ids: ['proc_001', 'proc_099'] },
      action: 'TERMINATE_DESCENDANT_PROCESS',
      refused: /not in the packet \(proc_099\)/,
    },
    {
      why: 'an action the signal does not allow',
      answer: { recommended_action: 'CANCEL_AND_RESUME' },
      action: 'TERMINATE_DESCENDANT_PROCESS',
      refused: /CANCEL_AND_RESUME is not an action for HUNG_PROCESS \(allowed: /,
    },
  ];
  for (const row of table) {
    const result = reconcile('HUNG_PROCESS', RULES, { ...VALID, ...row.answer }, IDS);
    assert.equal(result.diagnosis.action, row.action, row.why);
    if (row.refused) assert.match(result.refused ?? '', row.refused, row.why);
    else assert.equal(result.refused, null, row.why);
    if (row.refused) assert.match(result.refused!, /the rules decide$/, row.why);
  }
});

test('parseDiagnosis: one strict object of the contract, on the last line or inside a fence', () => {
  const json = JSON.stringify(VALID);
  assert.deepEqual(parseDiagnosis(`thinking...\n${json}\n`), { ok: true, diagnosis: VALID });
  assert.deepEqual(parseDiagnosis(`\`\`\`json\n${JSON.stringify(VALID, null, 2)}\n\`\`\``), {
    ok: true,
    diagnosis: VALID,
  });
  const bad: Array<[string, RegExp]> = [
    ['', /answered nothing/],
    ['I think you should restart', /did not answer a JSON object/],
    [JSON.stringify({ ...VALID, recommended_action: 'REBOOT' }), /bad "recommended_action"/],
    [JSON.stringify({ ...VALID, confidence: 1.5 }), /bad "confidence"/],
    [JSON.stringify({ ...VALID, evidence_ids: [] }), /bad "evidence_ids"/],
    [JSON.stringify({ ...VALID, extra: 1 }), /bad "\(root\)"/],
    [JSON.stringify({ action: 'REPORT', rationale: 'the old contract' }), /bad/],
  ];
  for (const [text, problem] of bad) {
    const parsed = parseDiagnosis(text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.problem, problem, text);
  }
});
