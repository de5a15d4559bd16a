import type { BaseLogger } from 'pino';

import type { Config } from '../config/config.js';
import { OpenAiRecognizer } from './openai/index.js';
import { PocketSphinxRecognizer } from './pocketsphinx/index.js';
import type { Recognizer } from './recognizer.js';
import { vocabularyFiles } from './vocabularies.js';

/**
 * The speech recognizer the configuration asks for (`ASR_ENGINE`), started. An unavailable one
 * never stops the service: it is logged, `/readyz` reports it, and realtime sessions are refused
 * with `recognizer_unavailable` and the install command.
 */
export async function createRecognizer(
  config: Pick<Config, 'asr' | 'realtime'>,
  logger: Pick<BaseLogger, 'info' | 'warn' | 'debug'>,
): Promise<Recognizer> {
  const openai = config.asr.openai;
  if (config.asr.engine === 'openai' && openai !== null) {
    logger.info({ engine: 'openai', model: openai.model }, 'speech recognizer: OpenAI-compatible transcription');
    return new OpenAiRecognizer({
      baseUrl: openai.baseUrl,
      model: openai.model,
      timeoutMs: openai.timeoutMs,
      maxConcurrentRequests: openai.maxConcurrentRequests,
      logger,
      ...(openai.apiKey === null ? {} : { apiKey: openai.apiKey }),
    });
  }
  const workers = config.realtime.recognizerWorkers;
  const recognizer = new PocketSphinxRecognizer({
    vocabulary: vocabularyFiles(config.asr.vocabulary),
    secondPass: config.asr.secondPass,
    ...(workers > 0 ? { workers } : {}),
  });
  const status = await recognizer.status();
  if (status.available) {
    recognizer.warmUp().catch((error: unknown) => {
      logger.warn({ err: error }, 'speech recognizer failed to start');
    });
  } else {
    logger.warn(
      { reason: status.reason, install: status.installHint },
      'speech recognizer unavailable; realtime sessions will be refused',
    );
  }
  return recognizer;
}
