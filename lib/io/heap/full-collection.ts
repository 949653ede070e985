import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/**
 * V8's heap as a pass's HeapPort: its size, and a full collection now. Node offers the
 * collection only behind `--expose-gc`, which cannot be on the command line (bin/deadman.js is
 * itself the script Node runs), so the flag is set at the first collection and `gc` taken from
 * a fresh context: only contexts made after the flag have it. Not at start-up: a code cache is
 * used only under the flags it was made with (young-generation.ts), so every module loaded after
 * the flag compiles from source and is cached anew under it.
 */
type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let exposed: Gc | null = null;

function gc(): Gc {
  if (!exposed) {
    setFlagsFromString('--expose-gc');
    const { runInNewContext } = process.getBuiltinModule('node:vm') as typeof import('node:vm');
    exposed = runInNewContext('gc') as Gc;
  }
  return exposed;
}

export const v8Heap = {
  usedBytes: (): number => getHeapStatistics().used_heap_size,
  collect: (): void => gc()(),
  compact: (): void => gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' }),
};
