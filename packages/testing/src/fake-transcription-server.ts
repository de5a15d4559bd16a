import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { parseWav } from '@chartwright/server/internal/asr/wav.js';

/** One request to the fake `/audio/transcriptions`, its multipart body parsed. */
export interface TranscriptionCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The text fields; repeated fields (`timestamp_granularities[]`) keep every value in order. */
  fields: Record<string, string[]>;
  file: { name: string; type: string; bytes: Uint8Array } | undefined;
  /** The uploaded WAV as the header declares it. */
  wav: { sampleRate: number; channels: number; bitsPerSample: number; samples: Int16Array } | undefined;
  /** Audio length in ms, from the WAV. */
  audioMs: number;
}

/** How the fake answers one call. May wait (to answer out of order) before writing. */
export type Responder = (call: TranscriptionCall, response: ServerResponse) => void | Promise<void>;
/** A responder that answers at once. */
export type ImmediateResponder = (call: TranscriptionCall, response: ServerResponse) => void;

export const verboseJson =
  (body: object): ImmediateResponder =>
  (_call, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ task: 'transcribe', language: 'english', ...body }));
  };

export const httpStatus =
  (code: number, headers: Record<string, string> = {}): ImmediateResponder =>
  (_call, response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ error: { message: `fake ${code}`, type: 'fake' } }));
  };

/** Never answers (the client's timeout or abort ends the call). */
export const hang: Responder = () => undefined;

function wavOf(bytes: Uint8Array): TranscriptionCall['wav'] {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const { sampleRate, samples } = parseWav(bytes);
    return { sampleRate, channels: view.getUint16(22, true), bitsPerSample: view.getUint16(34, true), samples };
  } catch {
    return undefined;
  }
}

/**
 * A real HTTP server speaking the OpenAI transcription API (the third-party service the engine
 * talks to): it parses each multipart upload and answers with the responder the test chose.
 */
export class FakeTranscriptionServer {
  readonly calls: TranscriptionCall[] = [];
  private readonly scripted: Responder[] = [];
  private fallback: Responder = httpStatus(599);
  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void this.handle(request.method ?? '', request.url ?? '', request.headers, Buffer.concat(chunks), response);
      });
    });
  }

  static async start(): Promise<FakeTranscriptionServer> {
    const fake = new FakeTranscriptionServer();
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
    return fake;
  }

  /** The API root the engine is configured with. */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Answers the next calls, in arrival order, with these. */
  script(...responders: Responder[]): void {
    this.scripted.push(...responders);
  }

  /** Answers every call nothing is scripted for. */
  otherwise(responder: Responder): void {
    this.fallback = responder;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async handle(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    response: ServerResponse,
  ): Promise<void> {
    const fields: Record<string, string[]> = {};
    let file: TranscriptionCall['file'];
    try {
      // The platform's own multipart parser, so the body is checked by a reader that is not ours.
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': headers['content-type'] ?? '' },
      }).formData();
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') (fields[name] ??= []).push(value);
        else file = { name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
      }
    } catch {
      httpStatus(400)(this.record(method, url, headers, fields, undefined), response);
      return;
    }
    const call = this.record(method, url, headers, fields, file);
    await (this.scripted.shift() ?? this.fallback)(call, response);
  }

  private record(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    fields: Record<string, string[]>,
    file: TranscriptionCall['file'],
  ): TranscriptionCall {
    const wav = file === undefined ? undefined : wavOf(file.bytes);
    const audioMs = wav === undefined ? 0 : (wav.samples.length * 1000) / wav.sampleRate;
    const call: TranscriptionCall = { method, url, headers, fields, file, wav, audioMs };
    this.calls.push(call);
    return call;
  }
}
