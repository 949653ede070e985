import { typeOfCutLine } from './json-line.ts';

/**
 * Lines no detector reads, told from their raw text before JSON.parse: most of a busy stream
 * (agent messages, reasoning, prompts, item updates) costs a regex on its opening bytes instead
 * of a parse and a validation. Conservative by construction: a line is skipped only when its
 * opening `"type"` (and for Codex items the item's type) is one whose events are always none,
 * and for Claude messages only when the raw text cannot hold a tool call, a tool result, an
 * API error or the usage-limit text; anything else, or a line whose type is not its first key,
 * is parsed as before. The full parse gives such a line `{ recognized: true, events: [] }`
 * too, whether it parses or was cut short (typeOfCutLine reads the same opening bytes), so
 * skipping changes no event — test/core/adapters/unread-lines.test.ts replays every shipped
 * transcript and trace with and without this to prove it. The one line it can misjudge is one
 * that repeats its top-level `"type"` key, which neither agent writes.
 */

const CODEX_READ = new Set([
  'thread.started',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'error',
  'item.started',
  'item.completed',
]);
/** An item's own type, when it is written right after its id as Codex does. */
const CODEX_ITEM_TYPE =
  /^\s*\{\s*"type"\s*:\s*"item\.(?:started|completed)"\s*,\s*"item"\s*:\s*\{\s*"id"\s*:\s*"[^"\\]{0,100}"\s*,\s*"type"\s*:\s*"([\w.-]{1,64})"/;
/** Items that become tool events or warnings (codex.ts); every other item is eventless. */
const CODEX_READ_ITEMS = new Set(['command_execution', 'mcp_tool_call', 'file_change', 'error', 'context_compaction']);

/** Whether the Codex adapter would make no event of `line` and count it as the agent speaking. */
export function isUnreadCodexLine(line: string): boolean {
  const type = typeOfCutLine(line);
  if (type === null) return false;
  if (!CODEX_READ.has(type)) return true;
  if (type !== 'item.started' && type !== 'item.completed') return false;
  const itemType = CODEX_ITEM_TYPE.exec(line.slice(0, 512))?.[1];
  return itemType !== undefined && !CODEX_READ_ITEMS.has(itemType);
}

const CLAUDE_READ = new Set(['system', 'assistant', 'user', 'result', 'rate_limit_event']);
/**
 * What makes an assistant message worth parsing: a tool call, an API error, an escape (it could
 * spell any key or value), or a `"text"` key written loosely or whose value may open the limit
 * or throttle phrase (claude-usage-limit.ts): with Y, C, A ("API Error:"), white space, an
 * escape, or nothing yet. One regex pass over the line: a line is a slice of its piece's text,
 * and V8 searches a slice for a word far slower than for one character — the four `includes`
 * this replaces cost 2.4 times its instructions on an assistant text line (callgrind).
 */
const ASSISTANT_READ = /"(?:tool_use|error)"|\\u|"text"(?![,}\]]|:"[^"\s\\yYcCaA])/;

/** Whether the Claude adapter would make no event of `line` and count it as the agent speaking. */
export function isUnreadClaudeLine(line: string): boolean {
  const type = claudeTypeOf(line);
  if (type === null) return false;
  if (!CLAUDE_READ.has(type)) return true;
  // A tool result is named near the start of its line, where the search ends.
  if (type === 'user') return !line.includes('"tool_result"') && !line.includes('\\u');
  return type === 'assistant' && !ASSISTANT_READ.test(line);
}

const TYPE_OPENING = '{"type":"';

/**
 * typeOfCutLine's answer, read without its regex and match array when the line opens as
 * Claude writes it: these cost about as much as the rest of the pre-check. A type read so that
 * is not one of Claude's (it may hold characters typeOfCutLine refuses) is asked again.
 */
function claudeTypeOf(line: string): string | null {
  const end = line.startsWith(TYPE_OPENING) ? line.indexOf('"', TYPE_OPENING.length) : -1;
  const type = end === -1 ? null : line.slice(TYPE_OPENING.length, end);
  if (type !== null && CLAUDE_READ.has(type)) return type;
  return typeOfCutLine(line);
}
