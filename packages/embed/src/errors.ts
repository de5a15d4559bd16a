/**
 * Codes of the problems the embed helper reports itself. The widget's own problems arrive with the
 * codes of its WIDGET_ERROR messages (`INVALID_PATIENT_DATA`, …), which later versions extend.
 */
export const EMBED_ERROR_CODES = Object.freeze({
  INVALID_OPTIONS: 'mountWidget() was called with options it cannot use; the message names each one.',
  TOKEN_UNAVAILABLE: 'getToken() threw, rejected or returned no token; the widget keeps the token it has.',
  RELOAD_LIMIT:
    'The widget reported TOKEN_EXPIRED again and again right after reloads with new tokens, so it is not reloaded again.',
  INVALID_WIDGET_MESSAGE: 'The widget sent a message of a known type with missing or malformed fields; it was dropped.',
} as const);
export type EmbedErrorCode = keyof typeof EMBED_ERROR_CODES;

/**
 * What `onError` receives: a WIDGET_ERROR the widget sent (`source: 'widget'`, with its `code` and
 * field-level `message`), or a problem of the embed helper (`source: 'embed'`, an EmbedErrorCode).
 */
export class WidgetEmbedError extends Error {
  override readonly name = 'WidgetEmbedError';
  readonly code: string;
  readonly source: 'widget' | 'embed';

  constructor(source: 'widget' | 'embed', code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.source = source;
    this.code = code;
  }

  static embed(code: EmbedErrorCode, message: string, cause?: unknown): WidgetEmbedError {
    return new WidgetEmbedError('embed', code, message, cause === undefined ? undefined : { cause });
  }
}
