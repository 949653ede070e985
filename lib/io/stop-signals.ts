/** The signals that stop `deadman agent` and `attach` (systemd's stop, ^C, a closed terminal). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** The signals that stop `deadman run`: there SIGHUP re-reads the config (listenForReload), as in every other daemon. */
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

/** `deadman run`'s stop signals (not SIGHUP) to `onSignal` until the returned function is called. */
export function listenForRunStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  return listen(RUN_STOP_SIGNALS, onSignal);
}

/** SIGHUP to `onReload` until the returned function is called; while listened to, it never stops the process. */
export function listenForReload(onReload: () => void): () => void {
  return listen(['SIGHUP'], onReload);
}
