import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyHelpers } from '../../../lib/core/detect/baseline.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { processKey, type ProcessInfo } from '../../../lib/core/process/process-info.ts';
import { TOOL_START_SLACK_MS } from '../../../lib/core/detect/hung.ts';
import { activityFloors } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';

const FLOORS = activityFloors(DEFAULT_CONFIG.activity);

const proc = (pid: number): ProcessInfo => ({
  pid, ppid: 10, pgid: pid, sid: pid, startTime: pid, state: 'S', comm: 'x', cmdline: ['x'], cpuTicks: 0, ioBytes: 0, listening: false,
});

test('helpers are the processes seen before the first tool call and earlier than the slack', () => {
  const mcpServer = proc(20);
  const tool = proc(30);
  // The MCP server from the start; the tool first seen 1.5 s before its event (Codex spawns first).
  let progress = updateProgress(emptyProgress, { at: 0, rootPid: 10, processes: [proc(10), mcpServer] }, FLOORS);
  progress = updateProgress(progress, { at: 8_500, rootPid: 10, processes: [proc(10), mcpServer, tool] }, FLOORS);
  const firstToolAt = 10_000;
  const helpers = classifyHelpers(progress, firstToolAt, TOOL_START_SLACK_MS);
  assert.equal(helpers.has(processKey(mcpServer)), true, 'the MCP server is a helper');
  assert.equal(helpers.has(processKey(tool)), false, 'the tool seen within the slack is not');
  assert.equal(helpers.has(processKey(proc(10))), true, 'the root is never a target anyway');
  assert.equal(classifyHelpers(progress, null, TOOL_START_SLACK_MS).size, 0, 'no tool call yet: no helpers decided');
  const later = updateProgress(progress, { at: 30_000, rootPid: 10, processes: [proc(10), mcpServer, tool, proc(40)] }, FLOORS);
  assert.equal(classifyHelpers(later, firstToolAt, TOOL_START_SLACK_MS).has(processKey(proc(40))), false, 'started after the first call');
});
