import type { WidgetMessageInvalid } from './validate-message.js';
import type { WidgetErrorMessage } from './widget-messages.js';

/**
 * The `code` of every WIDGET_ERROR the widget sends, with what it means. EMRs must tolerate codes not
 * listed here: later versions add more.
 */
export const WIDGET_ERROR_CODES = Object.freeze({
  INVALID_PATIENT_DATA: 'A PATIENT_CONTEXT failed validation; the message lists each field problem.',
  INVALID_MESSAGE: 'Another EMR message (or a payload with no known type) failed validation.',
  MICROPHONE_NOT_ALLOWED: 'The iframe may not use the microphone: embed it with allow="microphone".',
  PATIENT_MISMATCH: 'A PATIENT_CONTEXT named another patient than the one the emrSessionId’s encounter belongs to.',
} as const);
export type WidgetErrorCode = keyof typeof WIDGET_ERROR_CODES;

/** The WIDGET_ERROR the widget posts back for a message it refused. */
export function widgetErrorFor(result: WidgetMessageInvalid): WidgetErrorMessage {
  const code: WidgetErrorCode = result.type === 'PATIENT_CONTEXT' ? 'INVALID_PATIENT_DATA' : 'INVALID_MESSAGE';
  return { type: 'WIDGET_ERROR', code, message: result.entries.join('; ') };
}
