import type { FastifyReply } from 'fastify';

/**
 * Aborts when the caller hangs up before its reply is written: a caller that went away should not
 * keep an engine busy writing what nobody will read.
 */
export function abandonedSignal(reply: FastifyReply): AbortSignal {
  const abandoned = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abandoned.abort();
  });
  return abandoned.signal;
}
