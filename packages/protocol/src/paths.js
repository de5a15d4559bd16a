/** Where the realtime transcription WebSocket lives, relative to an environment's base URL. */
export const REALTIME_WS_PATH = '/api/v1/realtime';
/** The realtime WebSocket address for an environment's base URL (`https://…` → `wss://…/api/v1/realtime`). */
export function realtimeWsUrl(baseUrl) {
  const origin = baseUrl.replace(/\/+$/, '').replace(/^http(s?):\/\//i, 'ws$1://');
  return `${origin}${REALTIME_WS_PATH}`;
}
//# sourceMappingURL=paths.js.map
