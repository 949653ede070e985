// The container scenario's agent (contrib/container/test.sh): the demo's fake Codex
// (dist/lib/demo/fake-agent.js, shipped in the image), run as `node stall-once-agent.mjs codex
// exec --json … "<prompt>"`. A new session goes silent and, like a wedged agent, ignores
// SIGTERM (so deadman's stop grace runs out and the health check sees the stall); a resumed
// session (`… resume <id> …`) runs a 3 s tool call (long enough for a health check to see it),
// completes its turn and exits 0.
const resumed = process.argv.includes('resume');
process.env.FAKE_AGENT_SCENARIO = resumed ? 'complete' : 'silent';
if (resumed) process.env.FAKE_AGENT_TOOL ??= 'sleep 3';
if (!resumed) process.on('SIGTERM', () => {});
await import(process.env.FAKE_AGENT ?? '/opt/deadman/dist/lib/demo/fake-agent.js');
