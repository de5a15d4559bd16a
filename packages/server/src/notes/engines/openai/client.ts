import { z } from 'zod';

import { authorizationHeader, readCapped, ReplyTooLargeError, type FetchFunction } from '../../../openai-http.js';
import { EngineFailure } from './errors.js';
import type { ChatMessage } from './prompt.js';

export type { FetchFunction } from '../../../openai-http.js';

/** A reply larger than this is not a note: the call fails rather than buffer it. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface ChatRequest {
  /** `{baseUrl}/chat/completions`. */
  url: string;
  apiKey: string | undefined;
  model: string;
  messages: readonly ChatMessage[];
  signal: AbortSignal;
  fetch: FetchFunction;
}

export interface ChatReply {
  /** The assistant message's text; empty when the model sent none (a refusal, a tool call). */
  content: string;
  status: number;
  /** `stop`, `length` …, when the server says. */
  finishReason: string | undefined;
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish() }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

/**
 * One POST to an OpenAI-compatible `/chat/completions`. Deterministic settings (temperature 0) and
 * JSON mode, which servers that do not know it ignore. Throws an `EngineFailure('provider_error')`
 * for a network error, a non-2xx status or a body that is not a chat completion; an abort of
 * `signal` surfaces as whatever fetch throws, for the caller to classify.
 */
export async function postChatCompletion(request: ChatRequest): Promise<ChatReply> {
  const response = await send(request);
  const completion = completionSchema.safeParse(await readJson(response, request.signal));
  if (!completion.success) {
    throw new EngineFailure('provider_error', 'the provider’s reply is not a chat completion', {
      status: response.status,
    });
  }
  const choice = completion.data.choices[0];
  return {
    content: choice?.message?.content ?? '',
    status: response.status,
    finishReason: choice?.finish_reason ?? undefined,
  };
}

/** The POST, answered with a 2xx. */
async function send(request: ChatRequest): Promise<Response> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...authorizationHeader(request.apiKey),
  };
  const body = JSON.stringify({
    model: request.model,
    messages: request.messages,
    temperature: 0,
    response_format: { type: 'json_object' },
    stream: false,
  });
  let response: Response;
  try {
    response = await request.fetch(request.url, { method: 'POST', headers, body, signal: request.signal });
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw new EngineFailure('provider_error', 'the provider could not be reached', { cause: error });
  }
  if (!response.ok) {
    // The body may echo the prompt back: it is neither read into a message nor logged.
    await response.body?.cancel().catch(() => undefined);
    throw new EngineFailure('provider_error', `the provider answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return response;
}

async function readJson(response: Response, signal: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    text = await readCapped(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof ReplyTooLargeError) {
      throw new EngineFailure('provider_error', error.message, { status: response.status });
    }
    throw new EngineFailure('provider_error', 'the provider’s reply could not be read', {
      status: response.status,
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineFailure('provider_error', 'the provider’s reply is not JSON', { status: response.status });
  }
}
