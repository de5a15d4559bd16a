/**
 * What every OpenAI-compatible engine (the notes engine, the transcription engine) does the same
 * way over HTTP: where an endpoint lives under the configured base, how the key is sent, and how a
 * reply is read without buffering an unbounded body.
 */
export type FetchFunction = typeof globalThis.fetch;

/** `{baseUrl}/{path}`: the base is the API root including its version, e.g. `http://localhost:8000/v1`. */
export function openAiEndpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

/** `Authorization: Bearer …` when a key is set; local servers usually need none. */
export function authorizationHeader(apiKey: string | undefined): Record<string, string> {
  return apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` };
}

/** A reply body over the caller's limit: the read stops at the limit instead of buffering it. */
export class ReplyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the provider's reply is larger than ${limit} bytes`);
    this.name = 'ReplyTooLargeError';
  }
}

/** The body as UTF-8 text, refused (`ReplyTooLargeError`) once it passes `limit` bytes. */
export async function readCapped(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new ReplyTooLargeError(limit);
  }
  if (response.body === null) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ReplyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
