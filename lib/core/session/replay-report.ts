import { formatDuration } from '../time/duration.ts';

/**
 * A replay told as text: each step on the simulated clock, then one line per incident —
 * signal → action(s) → final state — which is what a shipped trace's `expect` lists and what
 * a recorded run is compared on. Pure; the steps come from the replayed records.
 */

export interface ReplayStepView {
  at: number;
  incident: number;
  kind: string;
  step: 'signal' | 'decision' | 'action' | 'verification' | 'transition';
  message?: string;
  verdict?: string;
  reason?: string;
  action?: string;
  result?: string;
  killed?: number[];
  detail?: string;
  to?: string;
}

/** `KIND → ACTION… → STATE` for each incident, in the order they opened. */
export function signalSequence(steps: readonly ReplayStepView[]): string[] {
  const incidents = new Map<number, string[]>();
  const states = new Map<number, string>();
  for (const step of steps) {
    if (step.step === 'signal') incidents.set(step.incident, [step.kind]);
    if (step.step === 'action') incidents.get(step.incident)?.push(step.action!);
    if (step.step === 'transition') states.set(step.incident, step.to!);
  }
  return [...incidents].map(([id, parts]) => [...parts, states.get(id) ?? 'OPEN'].join(' → '));
}

/** A time on the trace's clock as the replay prints it: minutes:seconds.tenths. */
export function traceClock(ms: number): string {
  const seconds = ms / 1000;
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, '0')}`;
}

function describeStep(step: ReplayStepView): string {
  switch (step.step) {
    case 'signal':
      return `${step.kind}: ${step.message}`;
    case 'decision':
      return `policy ${step.verdict}: ${step.reason}`;
    case 'action':
      return `${step.action} ${step.result}${step.killed?.length ? ` [${step.killed.join(' ')}] (simulated)` : ''}`;
    case 'verification':
      return `verification ${step.verdict}: ${step.detail}`;
    case 'transition':
      return `→ ${step.to}: ${step.reason}`;
  }
}

export interface ReplayView {
  name: string;
  title?: string | undefined;
  adapter: string;
  durationMs: number;
  steps: readonly ReplayStepView[];
  /** What the pass loop did between agent processes (a resume, a respawn, a usage wait), on the same clock. */
  notes?: readonly { at: number; text: string }[];
  outcome: string;
  exitCode: number;
}

export function renderReplay(view: ReplayView): string {
  const lines = [
    `replay ${view.name} (${view.adapter}, ${formatDuration(view.durationMs)} simulated)${view.title ? `: ${view.title}` : ''}`,
  ];
  const told = [
    ...view.steps.map((step) => ({ at: step.at, text: `#${step.incident} ${describeStep(step)}` })),
    ...(view.notes ?? []),
  ].sort((a, b) => a.at - b.at);
  for (const { at, text } of told) lines.push(`  ${traceClock(at)}  ${text}`);
  if (view.steps.length === 0) lines.push('  no signal raised');
  for (const sequence of signalSequence(view.steps)) lines.push(`signal: ${sequence}`);
  lines.push(`run ${view.outcome}: deadman would exit ${view.exitCode}`);
  return `${lines.join('\n')}\n`;
}
