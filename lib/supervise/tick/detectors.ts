import { DETECTION_ORDER, SIGNALS, type DetectedKind, type SignalKind } from '../../core/signals/registry.ts';
import type { Detector, DetectorInput, Found } from '../../core/signals/detector.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import type { OutputTracker } from '../output/output.ts';

/**
 * The run's detectors, each with the state it keeps in this run. The rules and their state live
 * in each kind's row (lib/core/signals) and lib/core/detect; here each is run in detection order
 * every tick, after the attempts finished since the last one are folded in.
 */

export type { DetectorInput, DetectorSettings, RunFacts } from '../../core/signals/detector.ts';

export interface Signal extends Found {
  kind: SignalKind;
  /** One incident per fingerprint: a signal whose fingerprint has an open incident feeds that incident. */
  fingerprint: string;
}

/** One kind's detector and its state in this run. */
export class RunDetector {
  private readonly rule: Detector<unknown>;
  private state: unknown;

  constructor(readonly kind: DetectedKind) {
    this.rule = SIGNALS[kind].detector;
    this.state = this.rule.init;
  }

  /** Its row says: look once more when the root exits. */
  get atExit(): boolean {
    return 'atExit' in SIGNALS[this.kind];
  }

  fold(attempts: readonly Attempt[], workspace: () => string | null): void {
    if (this.rule.fold) this.state = this.rule.fold(this.state, attempts, workspace);
  }

  /** Some attempts were dropped unseen: a streak counted across the gap could be false. */
  forget(): void {
    this.state = this.rule.init;
  }

  detect(input: DetectorInput): Signal | null {
    const found = this.rule.detect(input, this.state);
    if (!found) return null;
    const { message, finding, guidance } = found;
    return {
      kind: this.kind,
      fingerprint: this.kind,
      message,
      ...(finding ? { finding } : {}),
      ...(guidance !== undefined ? { guidance } : {}),
    };
  }
}

/** `kinds`: which to run (attach watches only some); the registry's detection order by default. */
export function runDetectors(kinds: readonly DetectedKind[] = DETECTION_ORDER): RunDetector[] {
  return kinds.map((kind) => new RunDetector(kind));
}

/** Folds one tick's finished attempts into every detector; the workspace is asked at most once, and only when an attempt carries no fingerprint. */
export function foldAttempts(
  detectors: readonly RunDetector[],
  attempts: readonly Attempt[],
  workspace: () => string | null,
): void {
  let taken: { value: string | null } | null = null;
  const once = () => (taken ??= { value: workspace() }).value;
  for (const detector of detectors) detector.fold(attempts, once);
}

/** Takes the tick's new attempts from the output into every detector, and returns them. */
export function takeAttempts(detectors: readonly RunDetector[], output: OutputTracker): readonly Attempt[] {
  const attempts = output.takeAttempts();
  // Some results were dropped unseen: a streak counted across the gap could be false.
  if (output.state.toolResultsLost > 0) {
    for (const detector of detectors) detector.forget();
    output.forgetLost();
  }
  if (attempts.length > 0) foldAttempts(detectors, attempts, () => null); // each carries its own fingerprint, if any (output.ts)
  return attempts;
}
