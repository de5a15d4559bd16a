import { formatDetail, validate } from '../validation.js';
import { AUDIO_ENCODINGS } from './constants.js';
import type { RealtimeErrorCode } from './errors.js';
import { realtimeClientMessageSchema, type RealtimeClientMessage } from './messages.js';

export type ClientMessageParse =
  | { ok: true; message: RealtimeClientMessage }
  | {
      ok: false;
      code: Extract<RealtimeErrorCode, 'invalid_message' | 'unknown_message_type' | 'unsupported_encoding'>;
      message: string;
    };

const KNOWN_TYPES = new Set(['start', 'finalize', 'pause', 'resume', 'keepalive', 'stop']);

/** A `start` naming an encoding the service does not take has its own code, whatever else is wrong with it. */
function unsupportedEncoding(value: object): string | undefined {
  const { audio } = value as { audio?: unknown };
  if (typeof audio !== 'object' || audio === null) return undefined;
  const { encoding } = audio as { encoding?: unknown };
  if (typeof encoding !== 'string' || (AUDIO_ENCODINGS as readonly string[]).includes(encoding)) return undefined;
  return `audio.encoding: must be one of ${AUDIO_ENCODINGS.join(', ')}.`;
}

/**
 * Parses a text frame into a client message, or says what is wrong with it in words fit for an
 * `error` event. Never throws, and never repeats the frame's content (it may hold anything).
 */
export function parseRealtimeClientMessage(text: string): ClientMessageParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'invalid_message', message: 'Text frames must be JSON messages.' };
  }
  const type =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as { type?: unknown }).type
      : undefined;
  if (typeof type !== 'string') {
    return { ok: false, code: 'invalid_message', message: 'type: must be a string naming the message.' };
  }
  if (!KNOWN_TYPES.has(type)) {
    return {
      ok: false,
      code: 'unknown_message_type',
      message: `type: must be one of ${[...KNOWN_TYPES].join(', ')}.`,
    };
  }
  const encodingProblem = type === 'start' ? unsupportedEncoding(value as object) : undefined;
  if (encodingProblem !== undefined) return { ok: false, code: 'unsupported_encoding', message: encodingProblem };
  const result = validate(realtimeClientMessageSchema, value);
  if (result.ok) return { ok: true, message: result.value };
  return { ok: false, code: 'invalid_message', message: result.details.map(formatDetail).join('; ') };
}
