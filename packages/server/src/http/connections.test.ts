import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

import { errorBodySchema } from '@chartwright/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import type { Config } from '../config/config.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

const KEY = `sk_live_${'Z'.repeat(43)}`;

const harnesses: Harness[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const h of harnesses.splice(0)) await h.close();
});

/** The real service listening on a loopback port of its own, with a route that shows the client IP. */
async function listening(config: Partial<Config> = {}): Promise<{ h: Harness; port: number }> {
  const h = await createHarness({
    config,
    configure: (app) => app.get('/test/ip', (request) => ({ ip: request.ip })),
  });
  harnesses.push(h);
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return { h, port: address.port };
}

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connecting to the close. */
  closedAfterMs: number;
}

/** Opens a socket (from `localAddress`), sends `chunks` with `gapMs` between them, and reads until the server closes. */
async function exchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: { gapMs?: number; localAddress?: string } = {},
): Promise<RawExchange> {
  const started = Date.now();
  const socket = connect({
    host: '127.0.0.1',
    port,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    socket.write(chunk);
    if (options.gapMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
  }
  await closed;
  return { received, closedAfterMs: Date.now() - started };
}

function parseResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The documented REST error body (docs/errors.md), its request id echoed in the header. */
function expectErrorBody(raw: string, status: number, type: string, code: string): void {
  const response = parseResponse(raw);
  expect(response.status, raw).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['connection']).toBe('close');
  const { error } = errorBodySchema.parse(JSON.parse(response.body));
  expect(error).toEqual({
    type,
    code,
    message: expect.any(String) as unknown,
    requestId: response.headers['x-request-id'],
  });
  expect(error.requestId).toMatch(/^req_/);
}

/** One byte at a time. */
const trickle = (text: string): Buffer[] => Array.from(Buffer.from(text), (byte) => Buffer.of(byte));

describe('Node-level client errors', () => {
  it('answers a malformed request with 400 bad_request in the documented error body', async () => {
    const { port } = await listening();
    const { received } = await exchange(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n']);
    expectErrorBody(received, 400, 'invalid_request_error', 'bad_request');
  });

  it('answers headers over the size limit with 431 headers_too_large', async () => {
    const { port } = await listening();
    const { received } = await exchange(port, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expectErrorBody(received, 431, 'headers_too_large_error', 'headers_too_large');
  });

  it('never logs the raw request, at any level: no key in any line, nor in any bytes decoded from one', async () => {
    const { h, port } = await listening({ logLevel: 'trace' });
    const { received } = await exchange(port, [
      `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nBad\u0001Header: 1\r\n\r\n`,
    ]);
    expect(parseResponse(received).status).toBe(400);
    expect(h.logs.lines.some((line) => line.includes('client error'))).toBe(true);

    // Every string and every byte array in every line, byte arrays decoded as the raw text they hold.
    const texts: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') texts.push(value);
      else if (Array.isArray(value)) {
        if (value.every((item) => Number.isInteger(item) && item >= 0 && item <= 255)) {
          texts.push(Buffer.from(value as number[]).toString('latin1'));
        }
        value.forEach(walk);
      } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
    };
    for (const line of h.logs.lines) walk(JSON.parse(line));
    for (const text of [...texts, h.logs.text]) expect(text).not.toContain('Z'.repeat(20));
  });
});

describe('request timeouts', () => {
  const connections = { requestTimeoutMs: 400, headersTimeoutMs: 200, maxPerAddress: 256 };

  const slowNote = (key: string) => [
    `POST /api/v1/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n',
    // One byte every 50 ms: the whole body would take 10 s.
    ...trickle('{"a":"'.padEnd(200, 'x')),
  ];

  it('cuts a request whose body trickles in, answering 408 request_timeout', async () => {
    const { h, port } = await listening({ connections });
    const { received, closedAfterMs } = await exchange(port, slowNote(h.project.testKey), { gapMs: 50 });
    expectErrorBody(received, 408, 'request_timeout_error', 'request_timeout');
    expect(closedAfterMs).toBeLessThan(3000);
  });

  it('cuts a trickling body already answered (401 before the body) without a second response', async () => {
    const { port } = await listening({ connections });
    const { received, closedAfterMs } = await exchange(port, slowNote(KEY), { gapMs: 50 });
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const response = parseResponse(received);
    expect(response.status).toBe(401);
    expect(errorBodySchema.parse(JSON.parse(response.body)).error.code).toBe('invalid_api_key');
    expect(closedAfterMs).toBeLessThan(3000);
  });

  it('cuts a request whose headers trickle in', async () => {
    const { port } = await listening({ connections });
    const { received, closedAfterMs } = await exchange(
      port,
      trickle(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(100)}\r\n\r\n`),
      { gapMs: 50 },
    );
    expectErrorBody(received, 408, 'request_timeout_error', 'request_timeout');
    expect(closedAfterMs).toBeLessThan(3000);
  });
});

describe('connections per client address', () => {
  /** Opens a keep-alive connection from `localAddress` and waits for one answered request on it. */
  async function hold(port: number, localAddress: string): Promise<{ socket: Socket; answered: boolean }> {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const answered = await Promise.race([
      once(socket, 'data').then(([chunk]) => (chunk as Buffer).toString().startsWith('HTTP/1.1 200')),
      once(socket, 'close').then(() => false),
    ]);
    return { socket, answered };
  }

  it('refuses connections past MAX_CONNECTIONS_PER_IP from one address, but not from a trusted proxy', async () => {
    // 127.0.0.2 is another loopback address: the proxy; 127.0.0.1 is a client.
    const { port } = await listening({
      connections: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxPerAddress: 3 },
      trustProxy: ['127.0.0.2'],
    });
    const client = [];
    for (let i = 0; i < 4; i += 1) client.push(await hold(port, '127.0.0.1'));
    expect(client.map((held) => held.answered)).toEqual([true, true, true, false]);

    const proxy = [];
    for (let i = 0; i < 6; i += 1) proxy.push(await hold(port, '127.0.0.2'));
    expect(proxy.every((held) => held.answered)).toBe(true);

    // A closed connection frees its place.
    const closed = once(client[0]!.socket, 'close');
    client[0]!.socket.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await hold(port, '127.0.0.1')).answered).toBe(true);
  });
});

describe('TRUST_PROXY', () => {
  const ipOf = async (h: Harness, remoteAddress: string, forwardedFor: string) =>
    (
      await h.app.inject({
        method: 'GET',
        url: '/test/ip',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      })
    ).json<{ ip: string }>().ip;

  it('believes X-Forwarded-For only from a listed proxy', async () => {
    const { h } = await listening({ trustProxy: ['10.0.0.0/8'] });
    expect(await ipOf(h, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await ipOf(h, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    // A client cannot add a proxy of its own making in front of the real one.
    expect(await ipOf(h, '10.1.2.3', '203.0.113.9, 10.9.9.9')).toBe('203.0.113.9');
  });

  it('ignores a spoofed X-Forwarded-For when no proxy is configured, and believes one hop with TRUST_PROXY=1', async () => {
    const { h } = await listening();
    expect(await ipOf(h, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    const { h: behindOne } = await listening({ trustProxy: 1 });
    expect(await ipOf(behindOne, '10.1.2.3', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
  });
});
