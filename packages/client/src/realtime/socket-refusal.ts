import type { WebSocketLike } from '../core/context.js';

/** Why a socket did not open: the service's HTTP answer when it can be seen (`ws` only), else nothing. */
export type SocketRefusal =
  { refused: true; status: number; body: string; headers: Headers } | { refused: false; cause: unknown };

export function isRefusal(value: WebSocketLike | SocketRefusal): value is SocketRefusal {
  return 'refused' in value;
}
