import { pino, type Logger, type DestinationStream } from 'pino';

import type { LogLevel } from './config/config.js';

/**
 * Every place a credential or patient data could reach a log line. Request bodies and transcripts
 * are never logged at all; this list is the backstop for headers and fields that are.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-partner-key"]',
  'req.headers.cookie',
  'req.headers["sec-websocket-protocol"]',
  'headers.authorization',
  'headers["x-partner-key"]',
  'authorization',
  'apiKey',
  'key',
  'secret',
  'token',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.token',
];

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'chartwright' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: {
        // The path only: a query string could carry anything a caller pasted into it.
        req: (request: { method?: string; url?: string }) => ({
          method: request.method,
          path: request.url?.split('?')[0],
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
