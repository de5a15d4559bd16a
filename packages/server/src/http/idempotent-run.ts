import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyProblem } from '@chartwright/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';
import type { Idempotency, IdempotentCall, KeptAnswer } from '../idempotency/idempotency.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Keeps the first answer to each Idempotency-Key (idempotency/idempotency.ts). */
    idempotency: Idempotency;
  }
}

/** The headers of an answer a client reads besides its body; the content type follows from the route. */
const KEPT_HEADERS = ['location'] as const;

/** The request's Idempotency-Key, checked; undefined when it sent none. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  const problem = idempotencyKeyProblem(key);
  if (problem === null) return key;
  throw new AppError('invalid_idempotency_key', `The ${IDEMPOTENCY_KEY_HEADER} header ${problem}.`, {
    details: [{ path: IDEMPOTENCY_KEY_HEADER, message: problem }],
  });
}

/**
 * Runs the operation once per key: the first request with it runs and its answer is kept; a retry
 * gets that answer again, marked `Idempotent-Replayed: true` — a kept error is thrown again, so the
 * area's error envelope words it. Nothing of the answer is logged.
 */
export async function runIdempotently<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  call: IdempotentCall,
  run: () => Promise<T>,
): Promise<T> {
  const { idempotency } = request.server;
  const begun = await idempotency.begin(call);
  if (begun.kind === 'replay') return replay(reply, begun.answer) as T;
  const { held } = begun;
  const keep = (answer: KeptAnswer | null) =>
    (answer === null ? idempotency.release(held) : idempotency.settle(held, answer)).catch((error: unknown) => {
      // The caller still gets this answer; a retry finds the key held until its lease lapses.
      request.log.error({ err: error }, 'the answer to an Idempotency-Key was not kept');
    });
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await keep(error instanceof AppError ? errorAnswer(error) : null);
    throw error;
  }
  // A handler that answered itself left nothing to keep.
  await keep(reply.sent ? null : { status: reply.statusCode, headers: keptHeaders(reply), result });
  return result;
}

function errorAnswer(error: AppError): KeptAnswer {
  return {
    status: error.status,
    headers: error.headers,
    error: { code: error.code, message: error.message, details: error.details },
  };
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

function replay(reply: FastifyReply, answer: KeptAnswer): unknown {
  reply.code(answer.status).headers(answer.headers).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if ('error' in answer) {
    const { code, message, details } = answer.error;
    throw new AppError(code, message, { details, headers: answer.headers });
  }
  return answer.result;
}
