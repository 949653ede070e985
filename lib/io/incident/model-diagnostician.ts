import { z } from 'zod';
import { parseDiagnosis, type ParsedDiagnosis } from '../../core/incident/diagnosis-schema.ts';
import type { DiagnosticianChoice } from '../../core/config/diagnostician-choice.ts';
import type { EvidencePacket } from '../../core/incident/evidence-packet.ts';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';
import type { AnswerText } from './diagnostician.ts';

/**
 * Asks a model about one incident through fetch: an OpenAI-compatible Chat Completions or
 * Responses endpoint, or the Anthropic Messages API. One call, bounded by the timeout; the
 * reply's text must be the diagnosis contract. Every failure (no key, HTTP error, timeout,
 * a reply of another shape) is a problem line and the rules decide. The key is sent only in
 * the request's auth header and appears in no message.
 */

export type ModelChoice = Extract<DiagnosticianChoice, { kind: 'openai' | 'anthropic' }>;

export const DIAGNOSIS_INSTRUCTIONS = [
  "You diagnose one incident of a coding agent supervised by deadman. The user message is the incident's evidence packet (JSON):",
  'the signal and evidence items, each with an id. Answer with ONE JSON object and nothing else, with exactly these keys:',
  '"classification" (the signal kind, as given), "confidence" (0 to 1), "recommended_action" (one of the packet\'s allowed_actions),',
  '"rationale" (one or two sentences), "evidence_ids" (ids from the packet your rationale rests on, at least one),',
  '"guidance" (a short instruction for the agent, or null), "requires_human_approval" (true when a person should decide).',
].join(' ');

const MAX_REPLY_BYTES = 256 * 1024;

const chatReply = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) });
const responsesReply = z.object({
  output: z.array(
    z.object({
      type: z.string(),
      content: z.array(z.object({ type: z.string(), text: z.string().optional() })).optional(),
    }),
  ),
});
const messagesReply = z.object({ content: z.array(z.object({ type: z.string(), text: z.string().optional() })) });

interface ModelRequest {
  url: string;
  headers: Record<string, string>;
  body: object;
  /** The reply's text, or null when the reply is not of the API's shape. */
  text(reply: unknown): string | null;
}

function requestFor(choice: ModelChoice, key: string, instructions: string, input: string): ModelRequest {
  const json = { 'content-type': 'application/json' };
  if (choice.kind === 'anthropic') {
    return {
      url: `${choice.baseUrl}/messages`,
      headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: {
        model: choice.model,
        max_tokens: 1024,
        system: instructions,
        messages: [{ role: 'user', content: input }],
      },
      text: (reply) => joinText(messagesReply.safeParse(reply).data?.content),
    };
  }
  const headers = { ...json, authorization: `Bearer ${key}` };
  if (choice.api === 'responses') {
    return {
      url: `${choice.baseUrl}/responses`,
      headers,
      body: { model: choice.model, instructions, input },
      text: (reply) =>
        joinText(
          responsesReply
            .safeParse(reply)
            .data?.output.filter((o) => o.type === 'message')
            .flatMap((o) => o.content ?? [])
            .map((c) => ({ type: c.type === 'output_text' ? 'text' : c.type, text: c.text })),
        ),
    };
  }
  return {
    url: `${choice.baseUrl}/chat/completions`,
    headers,
    body: {
      model: choice.model,
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: input },
      ],
    },
    text: (reply) => chatReply.safeParse(reply).data?.choices[0]!.message.content ?? null,
  };
}

function joinText(blocks: Array<{ type: string; text?: string | undefined }> | undefined): string | null {
  if (!blocks) return null;
  return blocks
    .filter((b) => b.type === 'text' && b.text !== undefined)
    .map((b) => b.text)
    .join('\n');
}

export async function askModel(
  choice: ModelChoice,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
  packet: EvidencePacket,
): Promise<ParsedDiagnosis> {
  const answer = await askModelText(choice, env, timeoutMs, DIAGNOSIS_INSTRUCTIONS, JSON.stringify(packet));
  return answer.ok ? parseDiagnosis(answer.text) : answer;
}

/** One call with these instructions and this user message; the reply's text, or the problem line. */
export async function askModelText(
  choice: ModelChoice,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
  instructions: string,
  input: string,
): Promise<AnswerText> {
  const key = env[choice.keyEnv];
  if (!key) return { ok: false, problem: `has no key: $${choice.keyEnv} is not set` };
  const request = requestFor(choice, key, instructions, input);
  const signal = AbortSignal.timeout(timeoutMs);
  let body: string;
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal,
    });
    body = await response.text();
    if (body.length > MAX_REPLY_BYTES) return { ok: false, problem: `replied with more than ${MAX_REPLY_BYTES} bytes` };
    if (!response.ok) return { ok: false, problem: `replied HTTP ${response.status}` };
  } catch (error) {
    if (signal.aborted) return { ok: false, problem: `gave no answer within ${Math.round(timeoutMs / 1000)}s` };
    return { ok: false, problem: `could not be reached at ${request.url}: ${(error as Error).message}` };
  }
  const reply = parseJsonOrUndefined(body);
  if (reply === undefined) return { ok: false, problem: 'replied with a body that is not JSON' };
  const text = request.text(reply);
  if (text === null) return { ok: false, problem: `replied in a shape that is not the ${choice.kind} API's` };
  return { ok: true, text };
}
