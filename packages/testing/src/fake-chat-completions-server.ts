/**
 * A fake OpenAI-compatible chat completions server (`POST …/chat/completions`) for the note
 * engine's tests: it records every request and answers each with the next scripted responder. A
 * responder sees the request, so a test can answer from the prompt it was sent (the fact ids of
 * the fact sheet, say). A fake of the third-party service only; our own components stay real.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCompletionRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    temperature: number;
    response_format: { type: string };
    messages: { role: string; content: string }[];
  };
}

/** How the fake answers one request. */
export type ChatResponder = (response: ServerResponse, request: ChatCompletionRequest) => void;

/** A chat completion whose message is `content`. */
export const completion =
  (content: string | null, finishReason = 'stop'): ChatResponder =>
  (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: 0,
        model: 'fake-model',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
      }),
    );
  };

/** A chat completion whose message is `value` as JSON. */
export const json = (value: unknown): ChatResponder => completion(JSON.stringify(value));

/** A completion written from the request (its prompt). */
export const fromRequest =
  (answer: (request: ChatCompletionRequest) => unknown): ChatResponder =>
  (response, request) => {
    json(answer(request))(response, request);
  };

export const status =
  (code: number, body = '{"error":{"message":"boom"}}'): ChatResponder =>
  (response) => {
    response.writeHead(code, { 'content-type': 'application/json' });
    response.end(body);
  };

/** Never answers. */
export const hang: ChatResponder = () => undefined;

export class FakeChatCompletionsServer {
  readonly requests: ChatCompletionRequest[] = [];
  private responders: ChatResponder[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded: ChatCompletionRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionRequest['body'],
      };
      this.requests.push(recorded);
      const responder = this.responders.shift() ?? status(599, '{"error":"no reply scripted"}');
      responder(response, recorded);
    });
  });

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** The replies to the next requests, in order. */
  script(...responders: ChatResponder[]): void {
    this.responders = responders;
  }

  reset(): void {
    this.requests.length = 0;
    this.responders = [];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
