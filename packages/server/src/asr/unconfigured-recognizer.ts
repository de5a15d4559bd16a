import { INSTALL_COMMAND as POCKETSPHINX_INSTALL_COMMAND } from './pocketsphinx/config.js';
import { RecognizerError, type Recognizer, type RecognizerStatus } from './recognizer.js';

/** With no engine at all, the fix is the one createRecognizer builds by default: PocketSphinx. */
const STATUS: RecognizerStatus = {
  available: false,
  reason: 'no speech recognizer is configured',
  installHint: POCKETSPHINX_INSTALL_COMMAND,
};

/** Stands in where no recognizer is configured: always unavailable, and its status says what to install. */
export const UNCONFIGURED_RECOGNIZER: Recognizer = Object.freeze({
  name: 'none',
  info: { kind: 'none', name: 'none' } as const,
  // Refused for being unavailable, never for its language.
  languages: 'any',
  status: () => Promise.resolve(STATUS),
  openStream: () => Promise.reject(new RecognizerError('recognizer_unavailable', STATUS.reason)),
  close: () => Promise.resolve(),
});
