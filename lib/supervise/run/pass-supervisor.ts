import type { OutputTracker } from '../output/output.ts';
import type { PassPorts, ProcessTree } from '../ports.ts';
import type { RunFacts } from '../tick/detectors.ts';
import { Supervisor, type Stall } from '../tick/supervisor.ts';
import type { LiveConfig } from './live-config.ts';
import type { RunMachine } from './run-machine.ts';
import type { RunPlan } from './run-plan.ts';

/** The parts of a pass its supervisor is wired from. */
export interface PassSupervisorParts {
  readonly plan: RunPlan;
  readonly ports: PassPorts;
  readonly tree: ProcessTree;
  readonly live: LiveConfig;
  readonly output: OutputTracker;
  readonly startedAt: number;
  readonly facts: RunFacts;
}

/**
 * The supervisor of one pass: the pass's own ports and tree, the settings of the live config at
 * each use (a SIGHUP may change them mid-pass), and the actions taken in the run's earlier passes,
 * so none is taken twice. What a stall means for the run is the caller's (`onStall`).
 */
export function createPassSupervisor(pass: PassSupervisorParts, onStall: (stall: Stall) => void): Supervisor {
  const { ports } = pass;
  const agentName = () => (ports.adapter().name === 'generic' ? null : ports.adapter().name);
  return new Supervisor({
    ports: {
      monotonic: () => ports.clock.monotonic(),
      tree: pass.tree,
      records: ports.records,
      logger: ports.logger,
      consult: ports.consult,
      approvals: ports.approvals,
      resumed: ports.resumed,
    },
    settings: () => pass.live.supervisorSettings(agentName),
    output: pass.output,
    startedAt: pass.startedAt,
    facts: pass.facts,
    actionsTaken: pass.plan.actionsTaken,
    onStall,
  });
}

/** What the detectors know of the run: readiness is the machine's, read through (never a copy); the pass sets the evidence gate's verdict. */
export function passFacts(machine: Pick<RunMachine, 'ready'>): RunFacts {
  return {
    get ready() {
      return machine.ready;
    },
    evidenceDead: null,
  };
}
