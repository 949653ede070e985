import { systemClock } from '../../io/time/clock.ts';
import type { LoopClock } from '../../supervise/ports.ts';

/**
 * The real clock every command reads and waits on, named here and nowhere else in the commands
 * (a module of its own, so a command that loads no context pays for no more than the clock): a
 * command with a context takes it as `context.clock` (command-context.ts); one that loads none
 * (demo, replay, a shipped scenario's report) takes it from here.
 */
export const commandClock: LoopClock = systemClock;
