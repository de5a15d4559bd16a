import { ERROR_CODES, type ErrorBody, type WidgetErrorEnvelope } from '@chartwright/protocol';
import type { FastifyReply } from 'fastify';

import { AppError } from '../errors.js';

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

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const widgetApi = reply.request.url.startsWith('/api/widget/');
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(widgetApi ? widgetErrorEnvelope(error, reply.request.id) : errorBody(error, reply.request.id));
}
