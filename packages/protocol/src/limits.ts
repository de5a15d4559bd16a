/** Limits that both sides of the wire must agree on. */
export const LIMITS = Object.freeze({
  /** Realtime tokens live at most one hour (interface: Limits). */
  realtimeTokenMaxSeconds: 3600,
  /** Shortest realtime token we mint; shorter ones expire before a browser can use them. */
  realtimeTokenMinSeconds: 60,
  realtimeTokenDefaultSeconds: 3600,
  /** A rotated key or partner secret keeps working at most 90 days. */
  rotationGraceMaxSeconds: 90 * 86_400,
  /** Widget tokens a partner mints live 5 minutes to 7 days. */
  widgetTokenLifetimeMinSeconds: 300,
  widgetTokenLifetimeMaxSeconds: 7 * 86_400,
  /** The interface recommends rotating production keys every 90 days; older keys are flagged. */
  keyRotationRecommendedDays: 90,
  /** Client library request timeout default (interface: Limits). */
  clientTimeoutMs: 30_000,
} as const);
