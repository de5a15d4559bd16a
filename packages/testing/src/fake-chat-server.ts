import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request to the fake `/chat/completions`: the messages the engine sent. */
export interface ChatCall {
  model: string;
  messages: { role: string; content: string }[];
}

/**
 * A stand-in for an OpenAI-compatible chat completions provider (a third-party service): every
 * call is answered with the message content `reply` gives for it.
 */
export class FakeChatServer {
  readonly calls: ChatCall[] = [];
  private readonly server: Server;

  private constructor(reply: (call: ChatCall) => string) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCall;
        this.calls.push(call);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: `chatcmpl-${this.calls.length}`,
            object: 'chat.completion',
            model: call.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply(call) } }],
          }),
        );
      });
    });
  }

  static async start(reply: (call: ChatCall) => string): Promise<FakeChatServer> {
    const fake = new FakeChatServer(reply);
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
    return fake;
  }

  /** What NOTES_OPENAI_BASE_URL would be. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.close();
    await once(this.server, 'close');
  }
}
