import type { IncomingMessage } from 'node:http';

import type { WebSocketLike } from '../core/context.js';
import { holdEvents } from './held-socket.js';
import type { SocketRefusal } from './socket-refusal.js';

/**
 * Node without a global WebSocket (18, 20): the `ws` package, loaded on first use so browser
 * bundles never contain it. It can send `Authorization: Bearer`, and it shows the HTTP answer of a
 * refused upgrade, which a WHATWG WebSocket hides.
 */
export async function openNodeWebSocket(
  url: string,
  protocols: string[],
  credential: string,
): Promise<WebSocketLike | SocketRefusal> {
  const { WebSocket } = await import('ws');
  const socket = new WebSocket(url, protocols, { headers: { authorization: `Bearer ${credential}` } });
  socket.binaryType = 'arraybuffer';
  return new Promise((resolve) => {
    const opened = () => {
      socket.off('error', failed);
      resolve(holdEvents(socket));
    };
    const failed = (error: Error) => {
      socket.off('open', opened);
      resolve({ refused: false, cause: error });
    };
    socket.once('open', opened);
    socket.once('error', failed);
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      socket.off('open', opened);
      socket.off('error', failed);
      // Terminating a socket that never opened emits an error of its own: expected here.
      socket.on('error', () => undefined);
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          refused: true,
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: headersOf(response),
        });
        socket.terminate();
      });
      response.on('error', (error) => {
        resolve({ refused: false, cause: error });
        socket.terminate();
      });
    });
  });
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}
