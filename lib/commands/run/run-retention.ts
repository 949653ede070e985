import type { Config } from '../../core/config/config.ts';
import type { Clock } from '../../core/time/clock.ts';
import type { StoreSink } from '../../io/store/recording-store.ts';

/**
 * Retention as a run applies it: never before its command starts — a backlog of 9,000 runs past
 * max_runs once held the start for 640 s, past any unit's start timeout — but from the second
 * poll on, at most RUNS_PER_POLL runs a poll (a few milliseconds with the child tables indexed),
 * until a poll finds fewer left; and once more at the end, so a host whose runs each last less
 * than a poll still drops as many as it adds.
 */
export const RUNS_PER_POLL = 100;

export interface RunRetention {
  poll(): void;
  finish(): void;
}

export function runRetention(store: StoreSink, retention: Config['retention'], clock: Clock): RunRetention {
  let polls = 0;
  let backlog = true;
  const some = () => {
    const dropped = store.write('retention', (s) =>
      s.prune(clock.wall(), retention.max_age, retention.max_runs, RUNS_PER_POLL),
    );
    backlog = dropped === RUNS_PER_POLL;
  };
  return {
    poll() {
      if (polls++ > 0 && backlog) some();
    },
    finish() {
      some();
    },
  };
}
