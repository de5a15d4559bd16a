import type { RealtimeClientMessageInput } from '@chartwright/protocol';

import type { ClientContext, WebSocketLike } from '../core/context.js';
import { apiErrorFromResponse } from '../core/error-response.js';
import type { ClientEvent } from './session-machine/index.js';
import { parseServerEvent } from './server-events.js';
import { openRealtimeSocket } from './socket.js';
import { isRefusal } from './socket-refusal.js';

/**
 * A session's sockets, by number: opening one (its outcome and then its frames and its close come
 * back as session events), and what is sent on it.
 */
export class SessionSockets {
  readonly #sockets = new Map<number, WebSocketLike>();
  #opened = 0;
  /** Something was sent since the keepalive interval last passed. */
  #active = false;

  constructor(
    private readonly context: Pick<ClientContext, 'WebSocket' | 'logger'>,
    private readonly url: string,
    private readonly dispatch: (event: ClientEvent) => void,
  ) {}

  open(credential: string): void {
    openRealtimeSocket(this.context.WebSocket, this.url, credential).then(
      (opened) => {
        if (!isRefusal(opened)) {
          this.dispatch({ type: 'socket_opened', socket: this.add(opened) });
        } else if (opened.refused) {
          const error = apiErrorFromResponse(opened.status, opened.headers, opened.body);
          this.dispatch({ type: 'socket_refused', status: opened.status, error });
        } else {
          this.dispatch({ type: 'socket_unreachable', cause: opened.cause });
        }
      },
      (error: unknown) => {
        this.dispatch({ type: 'socket_failed', error });
      },
    );
  }

  send(id: number, message: RealtimeClientMessageInput): void {
    this.#sockets.get(id)?.send(JSON.stringify(message));
    this.#active = true;
  }

  /** Audio in frames the service accepts: whole sample frames, at most `maxFrameBytes` each. */
  write(id: number, bytes: Uint8Array, alignment: number, maxFrameBytes: number): void {
    const socket = this.#sockets.get(id);
    if (socket === undefined) return;
    const step = Math.max(alignment, maxFrameBytes - (maxFrameBytes % alignment));
    for (let offset = 0; offset < bytes.byteLength; offset += step) socket.send(bytes.subarray(offset, offset + step));
    this.#active = true;
  }

  close(id: number, code: number, reason: string): void {
    this.#sockets.get(id)?.close(code, reason);
  }

  /** Whether anything was sent since the last call. */
  takeActivity(): boolean {
    const active = this.#active;
    this.#active = false;
    return active;
  }

  private add(socket: WebSocketLike): number {
    const id = ++this.#opened;
    this.#sockets.set(id, socket);
    socket.addEventListener('message', (event) => {
      const parsed = parseServerEvent(event.data);
      if (parsed === undefined) {
        this.context.logger.debug('realtime: ignored a frame that is not a known event');
        return;
      }
      this.dispatch({ type: 'server_event', socket: id, event: parsed, at: Date.now() });
    });
    socket.addEventListener('close', (event) => {
      this.#sockets.delete(id);
      this.dispatch({ type: 'socket_closed', socket: id, code: event.code, reason: event.reason });
    });
    // `error` is always followed by `close`, which decides what happens.
    socket.addEventListener('error', () => undefined);
    return id;
  }
}
