import { StringDecoder } from 'node:string_decoder';
import { redactArgv } from '../../core/redact/argv.ts';
import { RedactedLineStream } from '../../core/redact/line-stream.ts';
import type { TraceEntry, TraceSettings } from '../../core/session/trace.ts';
import { TRACE_VERSION } from '../../core/session/trace-version.ts';
import type { Observation } from '../../core/process/process-info.ts';
import type { UsageWait } from '../../core/detect/usage-limit.ts';
import type { PassReason } from '../run/pass-loop.ts';
import type { Clock, EvidenceGate, ProcessTree, PassPorts, WorkspaceAnswer } from '../ports.ts';

/**
 * `deadman run --record`: each pass's ports, wrapped to also write what they saw into one trace
 * — the child's output chunks, every observation of its tree as the observer reported it, the
 * work-tree fingerprints, what each kill did, the evidence verdicts, the ready port's answers,
 * its exit — and between passes the usage wait's plan and the next agent process, every entry
 * stamped with milliseconds since the first spawn (to the microsecond: a tick's time is its
 * observation's). Replaying the trace feeds the same things back at the same times, so the loop
 * reaches the same decisions. Text goes through the redactor first; the child's output by whole
 * lines (line-stream.ts).
 */

export interface TraceSink {
  write(entry: TraceEntry): void;
}

export class TraceRecorder {
  /** The first spawn, on the monotonic clock; null until then. */
  private origin: number | null = null;
  /** Entries of the next pass asked before its process started, written after its `pass` entry; null when none wait. */
  private heldForPass: Array<string | null> | null = null;
  /** The last workspace answer still to be written, once it is; null when none is. */
  private workspaceWritten: Promise<unknown> | null = null;

  constructor(
    private readonly sink: TraceSink,
    private readonly settings: TraceSettings,
    private readonly redact: (text: string) => string,
    private readonly clock: Clock,
  ) {}

  /** A monotonic time (now by default) on the trace's clock: milliseconds since the first spawn, to the microsecond. */
  private since(monotonic = this.clock.monotonic()): number {
    return this.origin === null ? 0 : Math.max(0, this.offset(monotonic));
  }

  /** Unbounded: the boot of the start clock lies before the first spawn. */
  private offset(monotonic: number): number {
    return Math.round((monotonic - (this.origin ?? monotonic)) * 1000) / 1000;
  }

  /**
   * The work tree as the verification of a resume or respawn sees it (resumed-verification.ts):
   * its first answer is asked before the pass's process starts, so it is written after that
   * pass's entry; replay hands these answers to the verification alone.
   */
  resumedWorkspace(workspace: PassPorts['workspace']): PassPorts['workspace'] {
    if (!workspace) return workspace;
    const held: Array<string | null> = [];
    this.heldForPass = held;
    return () => {
      const answer = workspace();
      void Promise.resolve(answer).then((fingerprint) => {
        if (this.heldForPass === held) held.push(fingerprint);
        else this.sink.write({ type: 'workspace', at: this.since(), fingerprint, resumed: true });
      });
      return answer;
    };
  }

  /** The plan of the wait after a USAGE_LIMIT: when the next pass is due on the trace's clock. */
  usageWait(plan: UsageWait): void {
    const at = this.since();
    this.sink.write(
      plan.wait
        ? { type: 'usage_wait', at, resume_at: at + Math.max(0, Math.round(plan.resumeAt - this.clock.wall())) }
        : { type: 'usage_wait', at, resume_at: null, reason: plan.reason },
    );
  }

  /** One pass's ports, recording; `why` is null for the first pass, whose spawn writes the header. */
  ports(ports: PassPorts, why: PassReason | null): PassPorts {
    const { sink } = this;
    const workspace = ports.workspace;
    return {
      ...ports,
      spawn: this.spawn(ports, why),
      makeTree: (rootPid, runTag) => this.tree(ports.makeTree(rootPid, runTag)),
      signals: (onSignal) =>
        ports.signals((signal) => {
          sink.write({ type: 'signal', at: this.since(), signal });
          onSignal(signal);
        }),
      evidence: this.evidence(ports.evidence),
      portAccepts: async (port) => {
        const accepts = await ports.portAccepts(port);
        sink.write({ type: 'port', at: this.since(), accepts });
        return accepts;
      },
      forward: this.forward(ports),
      workspace: workspace && (() => this.workspaceAnswer(workspace())),
    };
  }

  /** Spawning, recording the pass (the header for the first) and the root's exit. */
  private spawn(ports: PassPorts, why: PassReason | null): PassPorts['spawn'] {
    const { sink, redact } = this;
    return async (argv, options) => {
      // A pass's workspace answers belong before the next pass's entry: replay hands each pass its own.
      await this.workspaceWritten;
      const spawned = await ports.spawn(argv, options);
      if (!spawned.ok) return spawned;
      const root = spawned.child.pid;
      if (why === null) {
        this.origin = this.clock.monotonic();
        sink.write({
          type: 'header',
          version: TRACE_VERSION,
          adapter: ports.adapter().name,
          root,
          settings: this.settings,
          wall: Math.round(this.clock.wall()),
        });
      } else {
        sink.write({ type: 'pass', at: this.since(), root, argv: redactArgv(argv, redact), why });
        // Stamped with the pass's time: a trace is in time order.
        for (const fingerprint of this.heldForPass?.splice(0) ?? [])
          sink.write({ type: 'workspace', at: this.since(), fingerprint, resumed: true });
        this.heldForPass = null;
      }
      spawned.child.once('exit', (code, signal) =>
        sink.write({ type: 'exit', at: this.since(), code, signal, adapter: ports.adapter().name }),
      );
      return spawned;
    };
  }

  /** Forwarding output, recording it redacted, by whole lines. */
  private forward(ports: PassPorts): PassPorts['forward'] {
    const { sink, redact } = this;
    return (source, fd, onChunk, onUndeliverable) => {
      // A chunk may end inside a UTF-8 character (the decoder carries it over) or inside a line,
      // and with it a secret: output is redacted and recorded by whole lines.
      const decoder = new StringDecoder('utf8');
      const lines = new RedactedLineStream(redact);
      const stream = fd === 2 ? 'stderr' : 'stdout';
      const record = (text: string, at: number) => {
        if (text) sink.write({ type: 'output', at: this.since(at), stream, text });
      };
      source.once('end', () => record(lines.write(decoder.end()) + lines.end(), this.clock.monotonic()));
      return ports.forward(
        source,
        fd,
        (chunk, arrivedAt) => {
          record(lines.write(decoder.write(chunk)), arrivedAt);
          onChunk(chunk, arrivedAt);
        },
        onUndeliverable,
      );
    };
  }

  /** The tree, recording each poll as the observer reported it (its time and start clock on the trace's clock) and what each kill did. */
  private tree(tree: ProcessTree): ProcessTree {
    const { sink, redact } = this;
    return {
      observe: () => {
        const observation = tree.observe();
        sink.write(this.observationEntry(observation, redact));
        return observation;
      },
      terminate: async (target) => {
        const result = await tree.terminate(target);
        sink.write({ type: 'terminate', at: this.since(), result });
        return result;
      },
      stopAll: (signal, graceMs, abort) => tree.stopAll(signal, graceMs, abort),
    };
  }

  /** Everything the observer reported, generically: a field it adds later is recorded without a change here. */
  private observationEntry(
    { at, rootPid: _root, processes, startClock, ...more }: Observation,
    redact: (text: string) => string,
  ): TraceEntry {
    return {
      type: 'observation',
      at: this.since(at),
      ...more,
      processes: processes.map((p) => ({ ...p, comm: redact(p.comm), cmdline: redactArgv(p.cmdline, redact) })),
      ...(startClock
        ? { startClock: { bootAt: this.offset(startClock.bootAt), ticksPerSecond: startClock.ticksPerSecond } }
        : {}),
    };
  }

  /** The evidence gate, recording a claim gone dead and the check on exit's answer (the claims themselves are not replayed). */
  private evidence(gate: EvidenceGate): EvidenceGate {
    const { sink, redact } = this;
    return {
      start: (onDead) =>
        gate.start((message) => {
          sink.write({ type: 'evidence', at: this.since(), dead: redact(message) });
          onDead(message);
        }),
      stop: () => gate.stop(),
      summary: () => gate.summary(),
      checkOnExit: async () => {
        const failing = await gate.checkOnExit();
        sink.write({ type: 'evidence', at: this.since(), on_exit: failing === null ? null : redact(failing) });
        return failing;
      },
    };
  }

  /** Written in the order asked for (replay hands the answers out in that order), each once it is in. */
  private workspaceAnswer(answer: WorkspaceAnswer): WorkspaceAnswer {
    const write = (fingerprint: string | null) => {
      this.sink.write({ type: 'workspace', at: this.since(), fingerprint });
      return fingerprint;
    };
    if (!(answer instanceof Promise) && this.workspaceWritten === null) return write(answer);
    const written = Promise.all([answer, this.workspaceWritten]).then(([fingerprint]) => {
      if (this.workspaceWritten === written) this.workspaceWritten = null;
      return write(fingerprint);
    });
    this.workspaceWritten = written;
    return written;
  }
}
