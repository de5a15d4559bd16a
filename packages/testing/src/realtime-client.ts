import type { AddressInfo } from 'node:net';

import {
  realtimeServerEventSchema,
  REALTIME_AUTH_SUBPROTOCOL_PREFIX,
  REALTIME_SUBPROTOCOL,
  type RealtimeServerEvent,
} from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';

/** Listens on an ephemeral port (once) and returns the realtime WebSocket's address. */
export async function realtimeUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/api/v1/realtime`;
}

export type EventOf<T extends RealtimeServerEvent['type']> = Extract<RealtimeServerEvent, { type: T }>;

/** A test client that validates every server event against the protocol's schema. */
export class RealtimeClient {
  readonly events: RealtimeServerEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) throw new Error('the server sent a binary frame');
      const raw = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      this.events.push(realtimeServerEventSchema.parse(JSON.parse(raw.toString('utf8'))));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString('utf8') });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  of<T extends RealtimeServerEvent['type']>(type: T): EventOf<T>[] {
    return this.events.filter((event): event is EventOf<T> => event.type === type);
  }

  /** Resolves with the first event of `type` (already received or to come). */
  async next<T extends RealtimeServerEvent['type']>(type: T, timeoutMs = 10_000): Promise<EventOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(type)[0];
      if (found !== undefined) return found;
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error(`socket closed before a ${type} event`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} event within ${timeoutMs} ms: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `count` events of `type` have arrived. */
  async count<T extends RealtimeServerEvent['type']>(
    type: T,
    count: number,
    timeoutMs = 10_000,
  ): Promise<EventOf<T>[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.of(type).length < count) {
      if (Date.now() > deadline) throw new Error(`fewer than ${count} ${type} events: ${JSON.stringify(this.events)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.of(type);
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.socket.close();
  }
}

export interface ConnectOptions {
  /** `Authorization: Bearer` credential. */
  bearer?: string;
  /** Offered as `chartwright.realtime.v1` + `auth.<credential>`. */
  subprotocolCredential?: string;
  protocols?: string[];
  query?: string;
}

export type Connection =
  | { ok: true; client: RealtimeClient; protocol: string }
  | { ok: false; status: number; body: { error: { code: string; message: string } }; headers: Record<string, unknown> };

/** Opens the socket; a refused upgrade resolves with its HTTP status and error body. */
export function connect(url: string, options: ConnectOptions): Promise<Connection> {
  const protocols =
    options.protocols ??
    (options.subprotocolCredential === undefined
      ? []
      : [REALTIME_SUBPROTOCOL, `${REALTIME_AUTH_SUBPROTOCOL_PREFIX}${options.subprotocolCredential}`]);
  const socket = new WebSocket(`${url}${options.query ?? ''}`, protocols, {
    headers: options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` },
  });
  // Registered at once: the server may send events right after the upgrade.
  const client = new RealtimeClient(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ ok: true, client, protocol: socket.protocol }));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          ok: false,
          status: response.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            error: { code: string; message: string };
          },
          headers: response.headers,
        });
        socket.terminate();
      });
    });
    socket.once('error', reject);
  });
}

/** Connects and expects the upgrade to succeed. */
export async function open(url: string, options: ConnectOptions): Promise<RealtimeClient> {
  const connection = await connect(url, options);
  if (!connection.ok) throw new Error(`upgrade refused: ${connection.status} ${JSON.stringify(connection.body)}`);
  return connection.client;
}
