import { pino, type DestinationStream, type Logger } from 'pino';

import type { LogLevel } from './config/config.js';
import { BatchedLogDestination } from './log-destination.js';

const REDACTED = '[redacted]';

/**
 * Field names whose value is a credential wherever they appear in a logged object, at any depth.
 * Request bodies and transcripts are never logged at all; this is the backstop for anything that is.
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'authorization',
  'Authorization',
  'x-partner-key',
  'cookie',
  'sec-websocket-protocol',
  'apiKey',
  'partnerKey',
  'key',
  'secret',
  'token',
  'password',
]);

/** Fields with a serializer of their own, which emits only the fields it names. */
const SERIALIZED_FIELDS: ReadonlySet<string> = new Set(['err', 'req', 'res']);

// Deeper than anything the service logs; past it a value is dropped rather than walked.
const MAX_DEPTH = 8;

/**
 * Raw bytes: a Buffer or any typed array, an ArrayBuffer, a Buffer after JSON (`{type:'Buffer',data}`),
 * or an array of byte values. Raw bytes are a request as it came off the wire, key included, in a form
 * no grep for the key finds, so none is ever logged.
 */
function isBinary(value: object): boolean {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return true;
  if (Array.isArray(value)) {
    return value.length > 0 && value.every((item) => Number.isInteger(item) && item >= 0 && item <= 255);
  }
  return (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data);
}

/** A copy of `value` with credentials and raw bytes replaced at every depth. */
function scrubbed(value: object, depth: number): unknown {
  if (isBinary(value)) return REDACTED;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item: unknown) => scrubbedValue(item, depth + 1));
  if (value instanceof Error) return serializeError(value, depth + 1);
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    copy[name] = SECRET_FIELDS.has(name) ? REDACTED : scrubbedValue(field, depth + 1);
  }
  return copy;
}

function scrubbedValue(value: unknown, depth: number): unknown {
  return typeof value === 'object' && value !== null ? scrubbed(value, depth) : value;
}

/**
 * Runs on every log line before it is written. A request's line holds only strings and numbers, so
 * this is a loop over a handful of fields: the cost of the old wildcard redaction paths (which
 * re-serialized every field of every line) without their one-level limit.
 */
function scrubLine(line: Record<string, unknown>): Record<string, unknown> {
  if (isBinary(line)) return { bytes: REDACTED };
  let copy: Record<string, unknown> | null = null;
  for (const name in line) {
    const value = line[name];
    let replacement: unknown = value;
    if (SECRET_FIELDS.has(name)) replacement = REDACTED;
    else if (typeof value === 'object' && value !== null && !SERIALIZED_FIELDS.has(name)) {
      replacement = scrubbed(value, 0);
    }
    if (replacement !== value) {
      copy ??= { ...line };
      copy[name] = replacement;
    }
  }
  return copy ?? line;
}

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  statusCode?: number;
  cause?: unknown;
}

/**
 * The fields of an error worth logging, and nothing else: errors carry whatever their thrower
 * attached (Node's HTTP parser attaches the raw request as `rawPacket`, HTTP clients their
 * request headers), so none of those is copied.
 */
function serializeError(error: unknown, depth = 0): unknown {
  // Something thrown that is no Error (a string, a plain object) is scrubbed like any other field.
  if (!(error instanceof Error)) return scrubbedValue(error, depth);
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const serialized: SerializedError = {
    type: error.name,
    message: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    ...(error.cause === undefined || depth >= MAX_DEPTH ? {} : { cause: serializeError(error.cause, depth + 1) }),
  };
  return serialized;
}

/** The path only: a query string could carry anything a caller pasted into it. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * pino's ISO time (`,"time":"2026-…Z"`), formatted once per millisecond: at thousands of requests a
 * second, most lines share their millisecond with the one before, and formatting the date was a
 * tenth of a request line's cost.
 */
function isoTimeOncePerMillisecond(): () => string {
  let at = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

const NOWHERE: DestinationStream = { write: () => undefined };

/**
 * A JSON-lines logger. Without a destination it writes to stdout asynchronously and in batches
 * (log-destination.ts), so a request never waits for the log; `flushLogs` writes what is gathered
 * before the process exits.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  // A silent logger writes nothing, so it needs no stdout of its own (tests make hundreds).
  const lines = destination ?? (level === 'silent' ? NOWHERE : new BatchedLogDestination(1));
  const logger = pino(
    {
      level,
      base: { service: 'chartwright' },
      timestamp: isoTimeOncePerMillisecond(),
      formatters: { log: scrubLine },
      serializers: {
        req: (request: { method?: string; url?: string }) => ({
          method: request.method,
          path: request.url === undefined ? undefined : pathOf(request.url),
        }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: (error: unknown) => serializeError(error),
      },
    },
    lines,
  );
  return logger;
}

/**
 * Resolves once every line the logger has gathered so far is written: pino hands the call to a
 * destination that flushes (the batched stdout), and answers at once for one that does not.
 */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    logger.flush(() => resolve());
  });
}
