import { StringDecoder } from 'node:string_decoder';
import type { TraceEntry, TraceSettings } from '../core/session/trace.ts';
import type { RunSessionPorts } from './ports.ts';

/**
 * `deadman run --record`: the run's ports, each wrapped to also write what it saw into a trace
 * — the child's output chunks, every observation of its tree, its exit — stamped with
 * milliseconds since the spawn. Replaying the trace feeds the same things back in the same
 * order, so the loop reaches the same decisions. Text goes through the redactor first.
 */

export interface TraceSink {
  write(entry: TraceEntry): void;
}

export function recordingPorts(ports: RunSessionPorts, settings: TraceSettings, sink: TraceSink, redact: (text: string) => string): RunSessionPorts {
  let spawnedAt = ports.clock.monotonic();
  const since = () => Math.max(0, Math.round(ports.clock.monotonic() - spawnedAt));
  return {
    ...ports,
    spawn: async (argv, options) => {
      const spawned = await ports.spawn(argv, options);
      if (!spawned.ok) return spawned;
      spawnedAt = ports.clock.monotonic();
      sink.write({ type: 'header', version: 1, adapter: ports.adapter().name, root: spawned.child.pid, settings });
      spawned.child.once('exit', (code, signal) => sink.write({ type: 'exit', at: since(), code, signal, adapter: ports.adapter().name }));
      return spawned;
    },
    makeTree: (rootPid, runTag) => {
      const tree = ports.makeTree(rootPid, runTag);
      return {
        observe: () => {
          const observation = tree.observe();
          const processes = observation.processes.map((p) => ({ ...p, comm: redact(p.comm), cmdline: p.cmdline.map(redact) }));
          sink.write({ type: 'observation', at: since(), processes });
          return observation;
        },
        terminate: (target) => tree.terminate(target),
        stopAll: (signal, graceMs, abort) => tree.stopAll(signal, graceMs, abort),
      };
    },
    forward: (source, fd, onChunk, onUndeliverable) => {
      // A chunk may end inside a UTF-8 character: the decoder carries it over to the next one.
      const decoder = new StringDecoder('utf8');
      const stream = fd === 2 ? 'stderr' : 'stdout';
      return ports.forward(source, fd, (chunk) => {
        const text = decoder.write(chunk);
        if (text) sink.write({ type: 'output', at: since(), stream, text: redact(text) });
        onChunk(chunk);
      }, onUndeliverable);
    },
  };
}
