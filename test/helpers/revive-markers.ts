import { markInterrupted, newMarker, withSessionId, type Marker } from '../../lib/core/revive/marker.ts';
import { fakeAgent } from './fake-agent.ts';

/** A marker of a `codex exec` run of the fake agent in `dir`, on `sessionId`, interrupted `agoMs` before now by a dead owner. */
export function interruptedCodex(dir: string, name: string, agoMs: number, sessionId: string): Marker {
  const argv = [
    process.execPath,
    fakeAgent,
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    dir,
    'write the report',
  ];
  const then = Date.now() - agoMs;
  const started = withSessionId(
    newMarker({ name, adapter: 'codex', argv, cwd: dir, owner: { pid: 999_999, startTime: 1 }, now: then }),
    sessionId,
    then,
  );
  return markInterrupted(started, 'exit 137', then);
}
