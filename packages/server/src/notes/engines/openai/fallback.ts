import type { GenerationOutcome, NoteGenerator, NoteProducer } from '../../generator.js';
import { EngineFailure, type EngineFailureCode } from './errors.js';
import type { EngineLogger } from './generator.js';

/** An outcome of `withFallback`: the reason, when it fell back, is one of the stable codes. */
export interface FallbackOutcome extends GenerationOutcome {
  fallback: { engine: GenerationOutcome['engine']; reason: EngineFailureCode } | null;
}

/**
 * A `NoteProducer` that tries `primary`; when it fails with a provider failure (timeout, HTTP or
 * network error, invalid output) the note comes from `fallback` instead, and the outcome says so:
 * `engine` is the engine that wrote the note, `fallback` the engine that failed and the reason code.
 *
 * An abort of the caller's signal is not a failure: it rejects as it is and nothing falls back. Any
 * other error of the primary counts as `provider_error` (logged as unexpected, by error name only);
 * an error of the fallback engine propagates.
 */
export function withFallback(
  primary: NoteGenerator,
  fallback: NoteGenerator,
  options: { logger?: EngineLogger } = {},
): (...args: Parameters<NoteProducer>) => Promise<FallbackOutcome> {
  return async (input, callOptions) => {
    try {
      const note = await primary.generate(input, callOptions);
      return { note, engine: primary.engine, fallback: null };
    } catch (error) {
      callOptions?.signal?.throwIfAborted();
      const expected = error instanceof EngineFailure;
      const reason: EngineFailureCode = expected ? error.code : 'provider_error';
      const fields = { engine: primary.engine.name, fallbackEngine: fallback.engine.name, reason };
      if (expected) options.logger?.warn(fields, 'note engine fell back');
      else {
        options.logger?.warn(
          { ...fields, error: error instanceof Error ? error.name : typeof error },
          'note engine failed unexpectedly, fell back',
        );
      }
      const note = await fallback.generate(input, callOptions);
      return { note, engine: fallback.engine, fallback: { engine: primary.engine, reason } };
    }
  };
}
