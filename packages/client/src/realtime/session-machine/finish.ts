import { REALTIME_CLOSE_CODES } from '@chartwright/protocol';

import { RealtimeError } from '../errors.js';
import { emit, socketOf, stay, to } from './common.js';
import type { ClientState, ClientTransition, SocketRecord } from './types.js';

/**
 * The session is over: once, whatever ended it. `lost` is the socket the service closed; any other
 * socket still open is closed here.
 */
export function finish(
  state: ClientState,
  code: number,
  reason: string,
  error: RealtimeError | undefined,
  lost?: SocketRecord,
): ClientTransition {
  if (state.kind === 'closed') return stay(state);
  const open = lost === undefined ? socketOf(state) : undefined;
  const ended = (lost ?? open)?.ended;
  const { stopping } = state.progress;
  const stopError = error ?? new RealtimeError('The session was closed before it stopped.', 'session_closed', true);
  return to(
    { kind: 'closed', progress: state.progress, ended },
    { type: 'clear_timers' },
    ...(open === undefined
      ? []
      : [{ type: 'close_socket', socket: open.id, code: REALTIME_CLOSE_CODES.normal, reason } as const]),
    ...(ended === undefined ? [] : [emit('ended', ended)]),
    ...(error === undefined ? [] : [emit('error', error)]),
    ...(!stopping
      ? []
      : ended?.reason === 'stopped'
        ? [{ type: 'stopped', ended } as const]
        : [{ type: 'stop_failed', error: stopError } as const]),
    { type: 'log', level: 'info', message: 'realtime: session closed', fields: { code, error: error?.code } },
    emit('close', { code, reason, ended, error }),
  );
}
