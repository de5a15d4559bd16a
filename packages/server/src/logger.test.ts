import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createHarness, LogCapture, type Harness } from '@chartwright/testing/harness.js';
import { createLogger } from './logger.js';

const KEY = `sk_live_${'K'.repeat(43)}`;

function loggedLines(logs: LogCapture): Record<string, unknown>[] {
  return logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the request log', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { logLevel: 'info' } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('writes one line per request, with its id, method, path, status and response time', async () => {
    const before = h.logs.lines.length;
    const response = await h.request({
      method: 'GET',
      url: '/api/v1/templates?note=never-logged',
      key: h.project.testKey,
    });
    expect(response.statusCode).toBe(200);
    const lines = loggedLines(h.logs).slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      requestId: response.headers['x-request-id'],
      method: 'GET',
      path: '/api/v1/templates',
      status: 200,
    });
    expect(lines[0]?.['responseTime']).toEqual(expect.any(Number));
    expect(h.logs.text).not.toContain('never-logged');
  });

  it('writes the line, byte for byte, that pino would write for the same fields', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T01:30:00.250Z'));
    try {
      const before = h.logs.lines.length;
      const response = await h.request({ method: 'GET', url: '/api/v1/templates?x="q"', key: h.project.testKey });
      const [written] = h.logs.lines.slice(before);
      const fields = JSON.parse(written ?? '{}') as Record<string, unknown>;

      const logs = new LogCapture();
      createLogger('info', logs)
        .child({ requestId: response.headers['x-request-id'] })
        .info(
          { method: 'GET', path: '/api/v1/templates', status: 200, responseTime: fields['responseTime'] },
          'request completed',
        );
      expect(written).toBe(logs.lines[0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes one line for a refused request too, with its status', async () => {
    const before = h.logs.lines.length;
    const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: KEY });
    expect(response.statusCode).toBe(401);
    const lines = loggedLines(h.logs).slice(before);
    expect(lines).toEqual([expect.objectContaining({ status: 401, requestId: response.headers['x-request-id'] })]);
  });
});

describe('the time of a line', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO time of the millisecond the line was written, also when lines share one', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const logs = new LogCapture();
    const logger = createLogger('info', logs);
    const times = [
      '2026-11-28T01:00:00.000Z',
      '2026-11-28T01:00:00.000Z',
      '2026-11-28T01:00:00.001Z',
      '2026-11-28T01:00:02.500Z',
    ];
    for (const time of times) {
      vi.setSystemTime(new Date(time));
      logger.info('tick');
    }
    expect(loggedLines(logs).map((line) => line['time'])).toEqual(times);
  });
});

describe('what the logger never writes, at any level', () => {
  it('redacts credential fields at any depth, not only one level down', () => {
    const logs = new LogCapture();
    const logger = createLogger('trace', logs);
    logger.info(
      {
        authorization: `Bearer ${KEY}`,
        partner: { credentials: { key: KEY, token: KEY }, name: 'Northside EMR' },
        attempts: [{ secret: KEY }, { headers: { 'x-partner-key': KEY, cookie: KEY } }],
      },
      'credentials in a logged object',
    );
    expect(logs.text).not.toContain('K'.repeat(20));
    const [line] = loggedLines(logs);
    expect(line).toMatchObject({
      authorization: '[redacted]',
      partner: { credentials: { key: '[redacted]', token: '[redacted]' }, name: 'Northside EMR' },
      attempts: [{ secret: '[redacted]' }, { headers: { 'x-partner-key': '[redacted]', cookie: '[redacted]' } }],
    });
  });

  it('writes no raw bytes: buffers, typed arrays and byte arrays are redacted wherever they are', () => {
    const logs = new LogCapture();
    const logger = createLogger('trace', logs);
    const raw = Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    logger.trace(
      {
        chunk: raw,
        view: new Uint8Array(raw),
        arrayBuffer: raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length),
        nested: { bytes: Array.from(raw), asJson: raw.toJSON() },
      },
      'bytes in a logged object',
    );
    const [line] = loggedLines(logs);
    expect(line).toMatchObject({
      chunk: '[redacted]',
      view: '[redacted]',
      arrayBuffer: '[redacted]',
      nested: { bytes: '[redacted]', asJson: '[redacted]' },
    });
  });

  it('logs an error by its type, message, code, stack and cause, never what its thrower attached', () => {
    const logs = new LogCapture();
    const logger = createLogger('trace', logs);
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', request: { token: KEY } });
    const error = Object.assign(new Error('Parse Error: Invalid method encountered', { cause }), {
      code: 'HPE_INVALID_METHOD',
      rawPacket: Buffer.from(`BREW / HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`),
      config: { headers: { Authorization: `Bearer ${KEY}` } },
    });
    logger.trace({ err: error }, 'client error');
    const [line] = loggedLines(logs);
    const logged = line?.['err'] as Record<string, unknown>;
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Parse Error: Invalid method encountered',
      code: 'HPE_INVALID_METHOD',
      cause: { type: 'Error', message: 'socket hang up', code: 'ECONNRESET' },
    });
    expect(logged['stack']).toContain('logger.test.ts');
    expect(Object.keys(logged).sort()).toEqual(['cause', 'code', 'message', 'stack', 'type']);
    expect(logs.text).not.toContain('K'.repeat(20));
  });

  it('logs a thrown value that is no Error like any other field: scrubbed, not dropped', () => {
    const logs = new LogCapture();
    const logger = createLogger('trace', logs);
    logger.warn({ err: { message: 'connect ECONNREFUSED 127.0.0.1:6379', token: KEY } }, 'redis connection error');
    expect(loggedLines(logs)[0]?.['err']).toEqual({
      message: 'connect ECONNREFUSED 127.0.0.1:6379',
      token: '[redacted]',
    });
  });
});
