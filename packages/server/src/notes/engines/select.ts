import type { Config } from '../../config/config.js';
import { singleEngine, type NoteProducer } from '../generator.js';
import { verified } from '../verifier/index.js';
import { extractiveGenerator } from './extractive/index.js';
import { createOpenAiGenerator, withFallback, type EngineLogger } from './openai/index.js';

/**
 * The note engine the configuration asks for, its notes checked by the verifier. The
 * OpenAI-compatible engine always has the extractive engine behind it, so a provider outage
 * degrades notes instead of failing them; the verifier removes the sentences of the model's that
 * contradict the visit, and flags those of the offline engines.
 */
export function noteProducer(config: Pick<Config, 'notes'>, logger: EngineLogger): NoteProducer {
  const openai = config.notes.openai;
  if (config.notes.engine === 'openai' && openai !== null) {
    const generator = createOpenAiGenerator({
      baseUrl: openai.baseUrl,
      model: openai.model,
      timeoutMs: openai.timeoutMs,
      logger,
      ...(openai.apiKey === null ? {} : { apiKey: openai.apiKey }),
    });
    return verified(withFallback(generator, extractiveGenerator, { logger }), {
      dropContradictions: (engine) => engine.name === generator.engine.name,
    });
  }
  return verified(singleEngine(extractiveGenerator));
}
