import type { BaseLogger } from 'pino';

import { openAiEndpoint } from '../../../openai-http.js';
import type { Fact } from '@chartwright/protocol';

import { extractFacts } from '../../facts/sheet.js';
import type { GeneratedNote, GenerationInput, NoteGenerator } from '../../generator.js';
import { postChatCompletion, type FetchFunction } from './client.js';
import { elapsedMs, withDeadline } from './deadline.js';
import { EngineFailure } from './errors.js';
import { contextItems, correctionMessage, initialMessages, type ChatMessage } from './prompt.js';
import { parseReply, type ReplyResult } from './reply.js';

/** What the engines log with: pino's, or Fastify's logger, which is one. */
export type EngineLogger = Pick<BaseLogger, 'info' | 'warn'>;

export interface OpenAiGeneratorOptions {
  /** The API root, `/chat/completions` is appended: `http://localhost:11434/v1`, `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when given and non-empty; local servers need none. */
  apiKey?: string;
  /** The model name the server knows: `llama3.1:8b`, `gpt-4o-mini` … Also the engine version. */
  model: string;
  /** Time allowed for the whole generation, the corrective retry included. */
  timeoutMs: number;
  /** Defaults to the global fetch. */
  fetch?: FetchFunction;
  logger?: EngineLogger;
}

const ENGINE_NAME = 'openai';

/** How much of an unusable reply is sent back with the corrective request. */
const MAX_ECHOED_REPLY_CHARACTERS = 32_000;

/**
 * A note engine backed by any OpenAI-compatible chat completions server (Ollama, vLLM, llama.cpp
 * server, hosted APIs). It prompts with the template's sections and guidance, the numbered
 * conversation and the visit's fact sheet (ids, polarity, subject, turns), asks for JSON keyed by
 * section with the facts and turns each statement states, validates
 * the reply against the template and the conversation (see parseReply), and asks once more, with
 * the problems found, when the reply is unusable.
 *
 * Fails with an `EngineFailure` (`provider_timeout`, `provider_error`, `invalid_output`); wrap it
 * with `withFallback` to fall back to an offline engine instead. An abort of the caller's signal
 * rejects with the signal's reason and is never reported as a provider failure.
 *
 * Logs engine, model, HTTP statuses, timings, attempt counts and reason codes; never the
 * conversation, the context, the note or the key.
 */
export function createOpenAiGenerator(options: OpenAiGeneratorOptions): NoteGenerator {
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new RangeError('timeoutMs must be a positive number of milliseconds');
  }
  const writer = new NoteWriter(options);
  const { logger, model, timeoutMs } = options;
  return {
    engine: Object.freeze({ name: ENGINE_NAME, version: model }),
    generate: (input, callOptions) =>
      withDeadline(
        {
          timeoutMs,
          signal: callOptions?.signal,
          onFailure: (failure, durationMs) => {
            logger?.warn(
              { engine: ENGINE_NAME, model, reason: failure.code, status: failure.status, durationMs },
              'note engine failed',
            );
          },
        },
        (signal) => writer.write(input, signal),
      ),
  };
}

/** One note: the request, and once more with the problems found when the reply is unusable. */
class NoteWriter {
  private readonly url: string;
  private readonly fetch: FetchFunction;

  constructor(private readonly options: OpenAiGeneratorOptions) {
    this.url = openAiEndpoint(options.baseUrl, 'chat/completions');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async write(input: GenerationInput, signal: AbortSignal): Promise<GeneratedNote> {
    const started = performance.now();
    const contextPaths = new Set(contextItems(input.context).map((item) => item.path));
    const { facts } = extractFacts(input);
    const messages = initialMessages(input.template, input.conversation, input.context, facts);
    const first = await this.attempt(messages, input, { contextPaths, facts }, signal);
    if (first.result.ok) return this.replied(first.result, facts, 1, started);
    this.options.logger?.warn(
      {
        engine: ENGINE_NAME,
        model: this.options.model,
        attempt: 1,
        problems: first.result.problems.length,
        finishReason: first.reply.finishReason,
      },
      'note engine reply invalid, asking again',
    );
    const problems =
      first.reply.finishReason === 'length'
        ? [...first.result.problems, 'the reply was cut off at the output limit: write fewer, shorter statements']
        : first.result.problems;
    const retry: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: first.reply.content.slice(0, MAX_ECHOED_REPLY_CHARACTERS) },
      correctionMessage(input.template, problems),
    ];
    const second = await this.attempt(retry, input, { contextPaths, facts }, signal);
    if (second.result.ok) return this.replied(second.result, facts, 2, started);
    throw new EngineFailure(
      'invalid_output',
      `the model's reply was invalid twice (${second.result.problems.length} problems in the second)`,
    );
  }

  private async attempt(
    messages: readonly ChatMessage[],
    input: GenerationInput,
    offered: { contextPaths: ReadonlySet<string>; facts: readonly Fact[] },
    signal: AbortSignal,
  ) {
    const { apiKey, model } = this.options;
    const reply = await postChatCompletion({ url: this.url, apiKey, model, messages, signal, fetch: this.fetch });
    const { template, conversation } = input;
    return { reply, result: parseReply(reply.content, template, conversation, offered.contextPaths, offered.facts) };
  }

  /** The note, with the fact sheet it was written from (what the verifier checks it against). */
  private replied(
    result: Extract<ReplyResult, { ok: true }>,
    facts: Fact[],
    attempts: number,
    started: number,
  ): GeneratedNote {
    this.options.logger?.info(
      { engine: ENGINE_NAME, model: this.options.model, attempts, durationMs: elapsedMs(started), ...result.stats },
      'note engine replied',
    );
    return { ...result.note, facts };
  }
}
