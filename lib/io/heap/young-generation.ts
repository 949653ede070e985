import { setFlagsFromString } from 'node:v8';

/**
 * A flood of output (random bytes, a chatty agent) allocates fast and keeps a line backlog alive
 * across collections, and V8 then grows the young generation up to 128 MB committed: 240 MB
 * peak RSS on 200 MB of random bytes. Kept at its starting size, the same flood peaks near
 * 110 MB for ~15-30 % more time in scavenges (bench/garbage-memory.ts, bench/throughput.ts;
 * issue 23.5). Only this growth flag takes effect after start-up; --max-semi-space-size does not.
 *
 * Called once the command's modules are loaded, not first thing: a code cache is only used under
 * the V8 flags it was made with, so every Node built-in loaded after a flag change is compiled
 * from its source. Set before the bundle loaded, that was child_process, crypto, sqlite and the
 * streams: 59 M of the 340 M instructions a `run -- true` took (callgrind; issue 27.1).
 */
export function keepYoungGenerationSmall(): void {
  // The bundle loads node:crypto at its first call (bin/bundle.js), which every command that
  // sets this flag makes: loaded now, it keeps its code cache.
  process.getBuiltinModule('node:crypto');
  setFlagsFromString('--semi-space-growth-factor=1');
}
