import { isatty } from 'node:tty';

/** The signals that stop `deadman agent` and `attach` (systemd's stop, ^C, a closed terminal). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** The signals that stop `deadman run` as a service: there SIGHUP re-reads the config (listenForReload), as in every other daemon. */
const RUN_STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

function listen(signals: readonly NodeJS.Signals[], onSignal: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}

/** Hands every stop signal deadman receives to `onSignal` until the returned function is called. */
export function listenForStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  return listen(STOP_SIGNALS, onSignal);
}

/**
 * A run in a terminal hears SIGHUP when that terminal closes: there it still stops the run, as
 * for any foreground program. A service (systemd, launchd, nohup) has no terminal: there it reloads.
 */
function inTerminal(): boolean {
  // fd 0 is asked directly: process.stdin would build a stream deadman never reads (on /dev/null,
  // a fs.ReadStream that loads fs/promises and readline: ~2 ms of every start, bench/startup.ts).
  // process.stdout stays: touching it is what makes a pipe on fd 1 non-blocking (io/passthrough.ts).
  return isatty(0) || [process.stdout, process.stderr].some((stream) => stream.isTTY === true);
}

/** `deadman run`'s stop signals (SIGHUP only in a terminal) to `onSignal` until the returned function is called. */
export function listenForRunStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  return listen(inTerminal() ? STOP_SIGNALS : RUN_STOP_SIGNALS, onSignal);
}

/** SIGHUP to `onReload` until the returned function is called (never in a terminal, where it stops the run). */
export function listenForReload(onReload: () => void): () => void {
  return inTerminal() ? () => {} : listen(['SIGHUP'], onReload);
}
