import { REALTIME_AUTH_SUBPROTOCOL_PREFIX, REALTIME_SUBPROTOCOL } from '@chartwright/protocol';

import type { WebSocketConstructor, WebSocketLike } from '../core/context.js';
import { holdEvents } from './held-socket.js';
import { isRefusal, type SocketRefusal } from './socket-refusal.js';

/** A socket that neither opens nor fails within this time is given up (and retried). */
const OPEN_TIMEOUT_MS = 15_000;

/**
 * Opens the realtime socket with `credential`. A WHATWG WebSocket (browsers, Node ≥ 22, or an
 * injected one) cannot set headers, so the credential travels as the `auth.<credential>`
 * subprotocol beside `chartwright.realtime.v1`; the service never echoes it. Without one, the
 * `ws` package sends it as `Authorization: Bearer`.
 */
export async function openRealtimeSocket(
  WebSocket: WebSocketConstructor | undefined,
  url: string,
  credential: string,
): Promise<WebSocketLike | SocketRefusal> {
  const opening =
    WebSocket === undefined
      ? import('./node-websocket.js').then(({ openNodeWebSocket }) =>
          openNodeWebSocket(url, [REALTIME_SUBPROTOCOL], credential),
        )
      : openWhatwgWebSocket(WebSocket, url, [REALTIME_SUBPROTOCOL, `${REALTIME_AUTH_SUBPROTOCOL_PREFIX}${credential}`]);
  return withTimeout(opening);
}

function openWhatwgWebSocket(
  WebSocket: WebSocketConstructor,
  url: string,
  protocols: string[],
): Promise<WebSocketLike | SocketRefusal> {
  const socket = new WebSocket(url, protocols);
  socket.binaryType = 'arraybuffer';
  return new Promise((resolve) => {
    const settle = (result: WebSocketLike | SocketRefusal) => {
      socket.removeEventListener('open', opened);
      socket.removeEventListener('close', failed);
      socket.removeEventListener('error', failed);
      resolve(result);
    };
    // The browser hides the HTTP answer of a refused upgrade: a refused credential and an
    // unreachable service look the same here.
    const opened = () => settle(holdEvents(socket));
    const failed = (event: unknown) => settle({ refused: false, cause: event });
    socket.addEventListener('open', opened);
    socket.addEventListener('close', failed);
    socket.addEventListener('error', failed);
  });
}

async function withTimeout(opening: Promise<WebSocketLike | SocketRefusal>): Promise<WebSocketLike | SocketRefusal> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<SocketRefusal>((resolve) => {
    timer = setTimeout(() => {
      resolve({ refused: false, cause: new Error(`The socket did not open within ${OPEN_TIMEOUT_MS} ms.`) });
    }, OPEN_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([opening, timedOut]);
    // A socket that opens after we gave up on it is closed at once.
    if (isRefusal(result)) {
      opening.then(
        (late) => {
          if (!isRefusal(late)) late.close(1000, 'open timed out');
        },
        () => undefined,
      );
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}
