export { createOpenAiGenerator, type EngineLogger, type OpenAiGeneratorOptions } from './generator.js';
export { withFallback, type FallbackOutcome } from './fallback.js';
export { ENGINE_FAILURE_CODES, EngineFailure, type EngineFailureCode } from './errors.js';
export { OPENAI_PROMPT_VERSION } from './prompt.js';
export type { FetchFunction } from './client.js';
