export { mountWidget } from './mount-widget.js';
export { EMBED_ERROR_CODES, WidgetEmbedError, type EmbedErrorCode } from './errors.js';
export type {
  ContextMode,
  GetToken,
  MountWidgetOptions,
  WidgetCallbacks,
  WidgetHandle,
  WidgetPatientContext,
} from './types.js';
export type {
  PushDocumentMessage,
  PushNoteMessage,
  SessionStartedMessage,
  WidgetDocumentType,
  WidgetNoteConfig,
  WidgetReadyMessage,
  WidgetToEmrMessage,
} from '@chartwright/protocol';
