import type { CommandModule } from 'yargs';
import { runCommandModule } from './run.ts';
import { configCommand } from './config.ts';
import { demoCommand } from './demo.ts';
import { checkCommand } from './check.ts';
import { unitCommand } from './unit.ts';
import { installCommand } from './install.ts';
import { incidentsCommand } from './incidents.ts';
import { reportCommand } from './report.ts';
import { reviveCommand } from './revive.ts';
import { statusCommand } from './status.ts';
import { notifyCommand } from './notify.ts';
import { metricsCommand } from './metrics.ts';
import { healthCommand } from './health.ts';
import { replayCommand } from './replay.ts';
import { watchCommand } from './watch.ts';
import { attachCommand } from './attach.ts';
import { agentCommand } from './agent.ts';
import { approveCommand, denyCommand } from './approve.ts';
import { ackCommand } from './ack.ts';
import { completionCommand } from './completion.ts';

/** Every registered command. Only commands that work are listed here. */
export const commands: CommandModule<object, never>[] = [
  runCommandModule as never,
  demoCommand as never,
  configCommand as never,
  checkCommand as never,
  unitCommand as never,
  installCommand as never,
  incidentsCommand as never,
  reportCommand as never,
  reviveCommand as never,
  statusCommand as never,
  notifyCommand as never,
  metricsCommand as never,
  healthCommand as never,
  replayCommand as never,
  watchCommand as never,
  attachCommand as never,
  agentCommand as never,
  approveCommand as never,
  denyCommand as never,
  ackCommand as never,
  completionCommand as never,
];
