import { ERROR_CODES, type ErrorBody, type WidgetErrorEnvelope } from '@chartwright/protocol';

import type { AppError } from '../errors.js';

/** How a part of the service words its errors: the REST error body, or the widget API's envelope. */
export type ErrorEnvelope = (error: AppError, requestId: string) => ErrorBody | WidgetErrorEnvelope;

export function errorBody(error: AppError, requestId: string): ErrorBody {
  const body: ErrorBody['error'] = {
    type: ERROR_CODES[error.code].type,
    code: error.code,
    message: error.message,
    requestId,
  };
  const firstPath = error.details[0]?.path;
  if (firstPath !== undefined && firstPath !== '') body.param = firstPath;
  if (error.details.length > 0) body.details = [...error.details];
  return { error: body };
}

/** The envelope the interface gives the widget endpoints: `{"success": false, "error": {…}}`. */
export function widgetErrorEnvelope(error: AppError, requestId: string): WidgetErrorEnvelope {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      requestId,
      ...(error.details.length > 0 ? { details: [...error.details] } : {}),
    },
  };
}
