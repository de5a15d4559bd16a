import type { IncomingMessage } from 'node:http';

import { validateWidgetToEmrMessage, type WidgetToEmrMessage } from '@chartwright/protocol';

/* The demo EMR's HTTP vocabulary: JSON bodies in and out, and coded errors. */

const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function readJson(request: IncomingMessage): Promise<unknown> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new HttpError(413, 'request_too_large', 'The body is larger than 2 MiB.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not JSON.');
  }
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export const json = (status: number, body: unknown): Reply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

/** A message the page relays from the widget, checked with the same validator the widget uses. */
export function widgetMessage<T extends WidgetToEmrMessage['type']>(
  body: unknown,
  type: T,
  patientId: string,
): Extract<WidgetToEmrMessage, { type: T }> {
  const result = validateWidgetToEmrMessage(body);
  if (!result.ok) throw new HttpError(400, 'invalid_body', result.entries.join('; '));
  if (result.message.type !== type) throw new HttpError(400, 'invalid_body', `type: must be ${type}`);
  const message = result.message as Extract<WidgetToEmrMessage, { type: T }>;
  // Filed only under the chart it was made for: a widget still showing another patient is refused.
  if ('patientId' in message && message.patientId !== patientId) {
    throw new HttpError(409, 'patient_mismatch', `This ${type} is for patient ${message.patientId}, not ${patientId}.`);
  }
  return message;
}
