/** The signals that stop a run (systemd's stop, ^C, a closed terminal). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** Hands every stop signal deadman receives to `onSignal` until the returned function is called. */
export function listenForStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}
