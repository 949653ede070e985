import type { ProcessInfo } from '../process/process-info.ts';
import type { SignalKind } from './kinds.ts';
import { SIGNALS } from '../signals/registry.ts';

/**
 * What a diagnostician is shown about one incident: the signal (kind, severity, message,
 * thresholds) and evidence items, each with an id (`proc_001`, `evt_014`) and compact facts.
 * No environment, bounded in size, and without a PID or any other number a model could act on:
 * it can only cite ids, which deadman maps back itself. Pure; the consult edge redacts the
 * packet before it leaves the process (lib/commands), as every string deadman hands out.
 */

export interface EvidenceItem {
  id: string;
  facts: Record<string, string | number | boolean>;
}

export interface EvidencePacket {
  signal: { kind: SignalKind; severity: 'warning' | 'critical'; message: string; thresholds: Record<string, number> };
  evidence: EvidenceItem[];
  /** The actions deadman may take for this signal; anything else is refused. */
  allowed_actions: readonly string[];
}

export interface PacketInput {
  kind: SignalKind;
  message: string;
  thresholds: Record<string, number>;
  /** The processes concerned (the hung subtree), the target first when there is one. */
  processes: readonly ProcessInfo[];
  target: Pick<ProcessInfo, 'pid' | 'startTime'> | null;
  lastLines: readonly string[];
  allowedActions: readonly string[];
}

/** What the supervisor knows of one signal; the rest of the packet comes from the incident. */
export type SignalEvidenceFacts = Omit<PacketInput, 'kind' | 'message' | 'allowedActions'>;

/** A packet above this many bytes of JSON loses output lines, then processes, oldest first. */
export const MAX_PACKET_BYTES = 12 * 1024;
const MAX_PROCESSES = 40;
const MAX_LINES = 20;
const MAX_TEXT = 300;

export function buildEvidencePacket(input: PacketInput): EvidencePacket {
  const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
  // The message names pids ("python3 (pid 6120) idle…"): the packet never carries one.
  const message = clip(input.message.replace(/\bpid \d+/g, 'pid ?'));
  const processes = input.processes.slice(0, MAX_PROCESSES).map((p, i): EvidenceItem => ({
    id: itemId('proc', i),
    facts: {
      role: input.target && p.pid === input.target.pid && p.startTime === input.target.startTime ? 'target' : 'member',
      command: clip(p.cmdline.join(' ') || p.comm),
      state: p.state,
      listening: p.listening,
    },
  }));
  const lines = input.lastLines
    .slice(-MAX_LINES)
    .map((text, i): EvidenceItem => ({ id: itemId('evt', i), facts: { stream_line: clip(text) } }));
  const packet: EvidencePacket = {
    signal: { kind: input.kind, severity: severityOf(input.kind), message, thresholds: input.thresholds },
    evidence: [...processes, ...lines],
    allowed_actions: input.allowedActions,
  };
  while (JSON.stringify(packet).length > MAX_PACKET_BYTES && packet.evidence.length > 1) {
    const oldestLine = packet.evidence.findIndex((item) => item.id.startsWith('evt_'));
    packet.evidence.splice(oldestLine >= 0 ? oldestLine : packet.evidence.length - 1, 1);
  }
  return packet;
}

export function evidenceIds(packet: EvidencePacket): Set<string> {
  return new Set(packet.evidence.map((item) => item.id));
}

function itemId(prefix: string, index: number): string {
  return `${prefix}_${String(index + 1).padStart(3, '0')}`;
}

/** A stall of the whole run is critical; one hung descendant or a finished agent is a warning (its row says). */
function severityOf(kind: SignalKind): 'warning' | 'critical' {
  return SIGNALS[kind].severity;
}
