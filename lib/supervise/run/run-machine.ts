/**
 * The run as one explicit machine, in the manner of s6-supervise's state × event table: each
 * cell names the next state and one small action, which supervised-pass.ts carries out. A cell
 * left out means the event does not apply in that state and is ignored. Pure: no timers, no
 * processes; the pass (supervised-pass.ts) feeds it events.
 *
 * The run's facts are kept beside the state, written only by `dispatch`, not as states of their
 * own: `ready` (a run stopped or stalled before READY=1 differs from one stopped after it only in
 * what the stall policy may do), the stall action, the stop signal deadman received, and the
 * signal the tree is being stopped with (one stop at a time: whoever asks later joins it).
 */

import { signalRow, stallInterrupts } from '../../core/signals/registry.ts';
import type { StallAction } from '../../core/signals/signal-row.ts';

export type RunState = 'starting' | 'waiting-ready' | 'running' | 'recovering' | 'stalled' | 'stopping' | 'finished';

export type RunEvent =
  | 'spawned'
  | 'spawn_failed'
  | 'ready'
  | 'tick'
  | 'recovery_started'
  | 'recovery_ended'
  | 'stall'
  | 'signal'
  | 'child_exited';

export type RunAction =
  /** Say why the command could not start, and finish. */
  | 'report_spawn_failure'
  /** Start the poll, the evidence checks and the watchdog; wait for the ready pattern or port. */
  | 'start_supervising'
  /** READY=1: from now systemd runs the watchdog. */
  | 'announce_ready'
  /** One supervision tick: observe, detect, act, publish the status line. */
  | 'supervise'
  /** Publish the status line (a recovery began or ended). */
  | 'publish_status'
  /** Record the stall, then withhold the watchdog or stop the tree, as `stallPolicy` says. */
  | 'apply_stall_policy'
  /** Forward the stop signal to the tree and give it the stop grace. */
  | 'stop_tree'
  /** A second stop signal: cut the grace short and SIGKILL the tree now. */
  | 'kill_tree_now'
  /** Stop leftover descendants, drain the output and work out the exit code. */
  | 'conclude';

type Cell = readonly [RunState, RunAction];

const LIVE: Partial<Record<RunEvent, Cell>> = {
  signal: ['stopping', 'stop_tree'],
  child_exited: ['finished', 'conclude'],
};

export const RUN_TABLE: Record<RunState, Partial<Record<RunEvent, Cell>>> = {
  starting: { spawned: ['waiting-ready', 'start_supervising'], spawn_failed: ['finished', 'report_spawn_failure'] },
  'waiting-ready': {
    ready: ['running', 'announce_ready'],
    tick: ['waiting-ready', 'supervise'],
    stall: ['stalled', 'apply_stall_policy'],
    ...LIVE,
  },
  running: {
    tick: ['running', 'supervise'],
    recovery_started: ['recovering', 'publish_status'],
    stall: ['stalled', 'apply_stall_policy'],
    ...LIVE,
  },
  recovering: {
    tick: ['recovering', 'supervise'],
    recovery_ended: ['running', 'publish_status'],
    stall: ['stalled', 'apply_stall_policy'],
    ...LIVE,
  },
  stalled: { ready: ['stalled', 'announce_ready'], tick: ['stalled', 'supervise'], ...LIVE },
  stopping: {
    ready: ['stopping', 'announce_ready'],
    tick: ['stopping', 'supervise'],
    signal: ['stopping', 'kill_tree_now'],
    child_exited: ['finished', 'conclude'],
  },
  finished: {},
};

/** What an event brings: the stop signal deadman received, or the action the stall policy chose. */
export interface RunEventDetail {
  signal?: NodeJS.Signals;
  stallAction?: StallAction;
}

/** How each stall action stops the tree: a withheld watchdog leaves it to systemd; an agent whose kind's row says it is interrupted (resumed, respawned, waiting out its limit) gets SIGINT as from a person, so it records the turn as interrupted, not killed. */
const stallStop = (action: StallAction): NodeJS.Signals | null =>
  action === 'withhold' ? null : stallInterrupts(action) ? 'SIGINT' : 'SIGTERM';

/** One transition that applied: what the machine tells its observer. */
export interface RunTransition {
  from: RunState;
  event: RunEvent;
  to: RunState;
  action: RunAction;
}

export class RunMachine {
  private current: RunState = 'starting';
  private isReady = false;
  private stallChoice: StallAction | null = null;
  private received: NodeJS.Signals | null = null;
  private stoppingWith: NodeJS.Signals | null = null;

  /** `observe`: told every transition that applied, after it applied (a test's trace of the run). */
  constructor(private readonly observe?: (transition: RunTransition) => void) {}

  get state(): RunState {
    return this.current;
  }
  /** READY=1 went out (the pattern matched, the port accepted, or neither was asked for). */
  get ready(): boolean {
    return this.isReady;
  }
  /** What the stall policy chose when the run stalled; null until then. */
  get stallAction(): StallAction | null {
    return this.stallChoice;
  }
  /** The stop signal that stopped the run; null until one came. */
  get stopSignal(): NodeJS.Signals | null {
    return this.received;
  }
  /** The signal the tree stop in progress began with; null while none is. */
  get treeStop(): NodeJS.Signals | null {
    return this.stoppingWith;
  }

  /** Applies one event; returns the action to carry out, or null when the event does not apply now. */
  dispatch(event: RunEvent, detail: RunEventDetail = {}): RunAction | null {
    const cell = RUN_TABLE[this.current][event];
    if (!cell) return null;
    const [to, action] = cell;
    if (event === 'ready') this.isReady = true;
    if (action === 'apply_stall_policy') this.stallChoice = detail.stallAction ?? 'exit';
    if (action === 'stop_tree') this.received = detail.signal ?? null;
    this.stoppingWith ??= this.stopsTreeWith(action);
    const from = this.current;
    this.current = to;
    this.observe?.({ from, event, to, action });
    return action;
  }

  private stopsTreeWith(action: RunAction): NodeJS.Signals | null {
    if (action === 'stop_tree') return this.received;
    if (action === 'apply_stall_policy') return stallStop(this.stallChoice!);
    return action === 'conclude' ? 'SIGTERM' : null;
  }
}

/**
 * The one rule for a stall. Withholding the watchdog lets systemd kill and restart the unit
 * (with revive); it is chosen only when configured, after READY=1 (before it systemd runs no
 * watchdog for us, so withholding would change nothing). A kind with a stall action of its own
 * (its row's `stall`) takes it: the wall-time cap exits with its own code, a finished agent
 * that did not exit is never restarted (its work is over), one stopped by a usage limit waits
 * for the reset in-process.
 */
export function stallPolicy(stall: { kind: string }, configured: 'withhold' | 'exit', ready: boolean): StallAction {
  const own = signalRow(stall.kind)?.stall ?? 'configured';
  if (own !== 'configured') return own;
  return configured === 'withhold' && ready ? 'withhold' : 'exit';
}
