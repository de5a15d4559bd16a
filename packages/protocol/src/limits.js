/** Limits that both sides of the wire must agree on. */
export const LIMITS = Object.freeze({
  /** Realtime tokens live at most one hour (interface: Limits). */
  realtimeTokenMaxSeconds: 3600,
  /** Shortest realtime token we mint; shorter ones expire before a browser can use them. */
  realtimeTokenMinSeconds: 60,
  realtimeTokenDefaultSeconds: 3600,
  /** Client library request timeout default (interface: Limits). */
  clientTimeoutMs: 30_000,
});
//# sourceMappingURL=limits.js.map
