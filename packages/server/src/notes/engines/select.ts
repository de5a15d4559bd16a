import type { FastifyBaseLogger } from 'fastify';

import type { Config } from '../../config/config.js';
import { singleEngine, type NoteProducer } from '../generator.js';
import { extractiveGenerator } from './extractive/index.js';
import { createOpenAiGenerator, withFallback } from './openai/index.js';

/**
 * The note engine the configuration asks for. The OpenAI-compatible engine always has the
 * extractive engine behind it, so a provider outage degrades notes instead of failing them.
 */
export function noteProducer(config: Config, logger: FastifyBaseLogger): NoteProducer {
  const openai = config.notes.openai;
  if (config.notes.engine === 'openai' && openai !== null) {
    const generator = createOpenAiGenerator({
      baseUrl: openai.baseUrl,
      model: openai.model,
      timeoutMs: openai.timeoutMs,
      logger,
      ...(openai.apiKey === null ? {} : { apiKey: openai.apiKey }),
    });
    return withFallback(generator, extractiveGenerator, { logger });
  }
  return singleEngine(extractiveGenerator);
}
