import type { BaseLogger } from 'pino';

import { openAiEndpoint } from '../../../openai-http.js';
import type { EngineInfo, GeneratedNote, GenerationInput, NoteGenerator } from '../../generator.js';
import { postChatCompletion, type FetchFunction } from './client.js';
import { EngineFailure } from './errors.js';
import { contextItems, correctionMessage, initialMessages, type ChatMessage } from './prompt.js';
import { parseReply } from './reply.js';

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
 * server, hosted APIs). It prompts with the template's sections and guidance and the numbered
 * conversation, asks for JSON keyed by section with the turns each statement comes from, validates
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
  const url = openAiEndpoint(options.baseUrl, 'chat/completions');
  const doFetch = options.fetch ?? globalThis.fetch;
  const engine: EngineInfo = Object.freeze({ name: ENGINE_NAME, version: options.model });
  const logger = options.logger;

  async function attempt(
    messages: readonly ChatMessage[],
    input: GenerationInput,
    contextPaths: ReadonlySet<string>,
    signal: AbortSignal,
  ) {
    const reply = await postChatCompletion({
      url,
      apiKey: options.apiKey,
      model: options.model,
      messages,
      signal,
      fetch: doFetch,
    });
    return { reply, result: parseReply(reply.content, input.template, input.conversation, contextPaths) };
  }

  async function generate(input: GenerationInput, signal: AbortSignal): Promise<GeneratedNote> {
    const started = performance.now();
    const contextPaths = new Set(contextItems(input.context).map((item) => item.path));
    const messages = initialMessages(input.template, input.conversation, input.context);

    const first = await attempt(messages, input, contextPaths, signal);
    if (first.result.ok) {
      logger?.info(
        { engine: ENGINE_NAME, model: options.model, attempts: 1, durationMs: elapsed(started), ...first.result.stats },
        'note engine replied',
      );
      return first.result.note;
    }
    logger?.warn(
      {
        engine: ENGINE_NAME,
        model: options.model,
        attempt: 1,
        problems: first.result.problems.length,
        finishReason: first.reply.finishReason,
      },
      'note engine reply invalid, asking again',
    );
    const second = await attempt(
      [
        ...messages,
        { role: 'assistant', content: first.reply.content.slice(0, MAX_ECHOED_REPLY_CHARACTERS) },
        correctionMessage(
          input.template,
          first.reply.finishReason === 'length'
            ? [...first.result.problems, 'the reply was cut off at the output limit: write fewer, shorter statements']
            : first.result.problems,
        ),
      ],
      input,
      contextPaths,
      signal,
    );
    if (second.result.ok) {
      logger?.info(
        {
          engine: ENGINE_NAME,
          model: options.model,
          attempts: 2,
          durationMs: elapsed(started),
          ...second.result.stats,
        },
        'note engine replied',
      );
      return second.result.note;
    }
    throw new EngineFailure(
      'invalid_output',
      `the model's reply was invalid twice (${second.result.problems.length} problems in the second)`,
    );
  }

  return {
    engine,
    async generate(input, callOptions) {
      const callerSignal = callOptions?.signal;
      callerSignal?.throwIfAborted();
      const controller = new AbortController();
      const timer = setTimeout(() => {
        controller.abort();
      }, options.timeoutMs);
      const onCallerAbort = () => {
        controller.abort(callerSignal?.reason);
      };
      callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      const started = performance.now();
      try {
        return await generate(input, controller.signal);
      } catch (error) {
        callerSignal?.throwIfAborted();
        const failure = controller.signal.aborted
          ? new EngineFailure('provider_timeout', `no complete reply within ${options.timeoutMs} ms`, { cause: error })
          : error;
        if (failure instanceof EngineFailure) {
          logger?.warn(
            {
              engine: ENGINE_NAME,
              model: options.model,
              reason: failure.code,
              status: failure.status,
              durationMs: elapsed(started),
            },
            'note engine failed',
          );
        }
        throw failure;
      } finally {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onCallerAbort);
      }
    },
  };
}

const elapsed = (started: number) => Math.round(performance.now() - started);
