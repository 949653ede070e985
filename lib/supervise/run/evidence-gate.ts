import type { Claim } from '../../core/config/config.ts';
import { needsAttention, type Verdict } from '../../core/evidence/evidence.ts';
import { repeatEvery } from '../../io/time/clock.ts';
import type { EvidenceGate, Repeater, RunRecorder } from '../ports.ts';

/**
 * Evidence inside `deadman run`: `always` claims are re-checked every `interval`, and one that
 * stays dead (or unknown: a check that cannot run is never taken as alive) for longer than its
 * `grace` makes the run unhealthy; `on_exit` claims judge a run that exited 0. The claims are
 * read through a getter: after a SIGHUP brings new ones, the next tick watches those.
 */

interface Watched {
  claim: Claim;
  index: number;
  nextAt: number;
  inFlight: boolean;
  last: Verdict | null;
  failingSince: number | null;
  reported: boolean;
}

export interface EvidenceGateDeps {
  evaluate(claim: Claim, index: number): Promise<Verdict>;
  monotonic(): number;
  records: Pick<RunRecorder, 'evidence'>;
  tickMs?: number;
  /** The loop's repeater port; the real interval unless a test hands in its fake. */
  every?: Repeater;
}

function watchAlways(claims: readonly Claim[]): Watched[] {
  return claims
    .map((claim, index) => ({ claim, index }))
    .filter(({ claim }) => claim.when === 'always')
    .map(({ claim, index }) => ({
      claim,
      index,
      nextAt: 0,
      inFlight: false,
      last: null,
      failingSince: null,
      reported: false,
    }));
}

export function createEvidenceGate(claims: () => readonly Claim[], deps: EvidenceGateDeps): EvidenceGate {
  let watched = { of: null as readonly Claim[] | null, list: [] as Watched[] };
  let onDead: ((message: string) => void) | null = null;
  let stopTicking: (() => void) | null = null;
  const tick = () => {
    const now = deps.monotonic();
    for (const w of watchedNow()) if (!w.inFlight && now >= w.nextAt) void check(w, deps, onDead!);
  };
  /**
   * The `always` claims, watched afresh when the list was replaced. The timer runs only while
   * there are some: an idle run wakes once a poll, not twice. A reload's claims are noticed at
   * the next summary, which the pass's status asks for at every poll.
   */
  const watchedNow = () => {
    if (claims() !== watched.of) {
      watched = { of: claims(), list: watchAlways(claims()) };
      if (onDead) keepTicking(watched.list.length > 0);
    }
    return watched.list;
  };
  const keepTicking = (on: boolean) => {
    if (on && !stopTicking) stopTicking = (deps.every ?? repeatEvery)(deps.tickMs ?? 1000, tick);
    if (!on && stopTicking) {
      stopTicking();
      stopTicking = null;
    }
  };

  return {
    start(dead) {
      onDead = dead;
      keepTicking(watchedNow().length > 0);
      tick();
    },
    stop() {
      onDead = null;
      keepTicking(false);
    },
    summary() {
      const now = deps.monotonic();
      const current = watchedNow();
      const bad = current.find((w) => failing(w, now));
      return {
        alive: current.filter((w) => w.last?.verdict === 'alive').length,
        total: current.length,
        failing: bad?.last ? `${bad.last.claim}: ${bad.last.reason}` : null,
      };
    },
    async checkOnExit() {
      const onExit = claims()
        .map((claim, index) => ({ claim, index }))
        .filter(({ claim }) => claim.when === 'on_exit');
      const verdicts = await Promise.all(onExit.map(({ claim, index }) => deps.evaluate(claim, index)));
      for (const v of verdicts) deps.records.evidence(v.claim, v.verdict, v.reason);
      const bad = verdicts.filter(needsAttention);
      return bad.length ? bad.map((v) => `${v.claim} ${v.verdict}: ${v.reason}`).join('; ') : null;
    },
  };
}

/** Failing past its grace: what makes a claim stop the run. */
function failing(w: Watched, now: number): boolean {
  return w.last !== null && needsAttention(w.last) && w.failingSince !== null && now - w.failingSince >= w.claim.grace;
}

/** One evaluation of a watched claim: recorded when its verdict changed, reported once when it fails past its grace. */
async function check(w: Watched, deps: EvidenceGateDeps, onDead: (message: string) => void): Promise<void> {
  w.inFlight = true;
  const verdict = await deps.evaluate(w.claim, w.index);
  w.inFlight = false;
  const now = deps.monotonic();
  w.nextAt = now + w.claim.interval;
  if (w.last?.verdict !== verdict.verdict || w.last.reason !== verdict.reason)
    deps.records.evidence(verdict.claim, verdict.verdict, verdict.reason);
  w.last = verdict;
  w.failingSince = needsAttention(verdict) ? (w.failingSince ?? now) : null;
  if (!needsAttention(verdict)) w.reported = false;
  if (failing(w, now) && !w.reported) {
    w.reported = true;
    onDead(`evidence ${verdict.claim} ${verdict.verdict}: ${verdict.reason}`);
  }
}
