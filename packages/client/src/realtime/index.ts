export type { AudioEncoding, AudioFormat, TranscriptSegment } from '@chartwright/protocol';
export { RealtimeBufferOverflowError, RealtimeError, type RealtimeClientErrorCode } from './errors.js';
export type {
  RealtimeAckEvent,
  RealtimeCloseEvent,
  RealtimeEndedEvent,
  RealtimeFinalEvent,
  RealtimePartialEvent,
  RealtimeReconnectedEvent,
  RealtimeReconnectingEvent,
  RealtimeReconnectReason,
  RealtimeRetryingEvent,
  RealtimeSessionEvents,
  RealtimeStartedEvent,
  RealtimeWarningEvent,
} from './events.js';
export {
  REALTIME_DEFAULTS,
  type RealtimeConnectOptions,
  type RealtimeTokenCallback,
  type RealtimeTokenGrant,
} from './options.js';
export { RealtimeSession } from './session.js';
