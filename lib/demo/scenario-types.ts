/** The shape of a demo scenario: plain data that `deadman demo` runs and judges. */

export interface DemoPaths {
  /** `node bin/deadman.js`, as argv. */
  deadman: string[];
  /** `node dist/lib/demo/fake-agent.js`, as argv. */
  fakeAgent: string[];
  dir: string;
  database: string;
}

export interface DemoStep {
  /** What a person would type (shown), with the fake agent called by its part. */
  shown: string;
  argv: string[];
  env?: Record<string, string>;
}

/** What the last step must end with, so a demo that did not show its stall says so and fails. */
export interface ScenarioExpectation {
  exitCode: number;
  /** The run's newest incident, as `KIND → STATE`; null when the scenario records none. */
  incident: string | null;
}

export interface Scenario {
  title: string;
  story: string;
  steps: DemoStep[];
  expect: ScenarioExpectation;
  /** Config file text written before the steps, when the scenario needs one. */
  config?: { file: string; text: string };
}
