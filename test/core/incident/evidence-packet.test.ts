import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEvidencePacket, evidenceIds, MAX_PACKET_BYTES } from '../../../lib/core/incident/evidence-packet.ts';
import type { ProcessInfo } from '../../../lib/core/process/process-info.ts';

function proc(pid: number, ppid: number, cmdline: string[]): ProcessInfo {
  return {
    pid,
    ppid,
    pgid: 48_001,
    sid: 48_002,
    startTime: 9_876_543,
    state: 'S',
    comm: cmdline[0]!,
    cmdline,
    cpuTicks: 7,
    ioBytes: 0,
    listening: false,
  };
}

const TARGET = proc(48_213, 48_100, ['python3', '-c', 'import time; time.sleep(600)']);
const CHILD = proc(48_214, 48_213, ['sleep', '600']);

test('the packet has the signal, ids for every item, and no PID or process identity anywhere', () => {
  const packet = buildEvidencePacket({
    kind: 'HUNG_PROCESS',
    message: 'python3 (pid 48213) idle for 2m 0s',
    thresholds: { hung_timeout_ms: 60_000, idle_ms: 120_000 },
    processes: [TARGET, CHILD],
    target: TARGET,
    lastLines: ['{"type":"item.started"}', 'waiting'],
    allowedActions: ['OBSERVE'],
  });
  assert.deepEqual(packet.signal, {
    kind: 'HUNG_PROCESS',
    severity: 'warning',
    message: 'python3 (pid ?) idle for 2m 0s',
    thresholds: { hung_timeout_ms: 60_000, idle_ms: 120_000 },
  });
  assert.deepEqual([...evidenceIds(packet)], ['proc_001', 'proc_002', 'evt_001', 'evt_002']);
  assert.equal(packet.evidence[0]!.facts.role, 'target');
  assert.equal(packet.evidence[1]!.facts.role, 'member');
  assert.equal(packet.evidence[0]!.facts.command, 'python3 -c import time; time.sleep(600)');
  const json = JSON.stringify(packet);
  for (const number of ['48213', '48214', '48100', '48001', '48002', '9876543'])
    assert.ok(!json.includes(number), `${number} leaked: ${json}`);
});

test('the packet is bounded: long lines are cut, and the oldest lines go first when it would be too big', () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i} ${'x'.repeat(2_000)}`);
  const processes = Array.from({ length: 60 }, (_, i) => proc(50_000 + i, 1, ['node', `worker-${i}`, 'y'.repeat(400)]));
  const packet = buildEvidencePacket({
    kind: 'HUNG_PROCESS',
    message: 'm',
    thresholds: {},
    processes,
    target: null,
    lastLines: lines,
    allowedActions: [],
  });
  assert.ok(JSON.stringify(packet).length <= MAX_PACKET_BYTES, `${JSON.stringify(packet).length} bytes`);
  assert.ok(
    packet.evidence.every((item) => Object.values(item.facts).every((v) => String(v).length <= 301)),
    'each text at most 300 characters and an ellipsis',
  );
  const kept = packet.evidence
    .filter((item) => item.id.startsWith('evt_'))
    .map((item) => String(item.facts.stream_line));
  if (kept.length > 0) assert.match(kept.at(-1)!, /^line 19 /, 'the newest line stays longest');
  assert.ok(packet.evidence.filter((item) => item.id.startsWith('proc_')).length <= 40);
});
