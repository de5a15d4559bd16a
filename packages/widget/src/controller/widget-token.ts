import type { WidgetSessionInfo } from '@chartwright/protocol';

import type { WidgetCredentials } from '../api/widget-api.js';
import { WidgetApiError } from '../api/widget-api-error.js';
import type { ControllerContext } from './context.js';
import type { Timer, Timers } from './timers.js';
import { jwtTimes, tokenSchedule } from './token-timing.js';
import { workspaceOf } from './widget-state.js';

/** How long a REQUEST_TOKEN_REFRESH waits for TOKEN_REFRESH before the token is treated as over. */
export const TOKEN_REFRESH_WAIT_MS = 30_000;

/**
 * The widget token: the one every call carries, TOKEN_EXPIRING and expiry on the service's clock,
 * and a new one from the EMR (TOKEN_REFRESH), asked for or not.
 */
export class WidgetToken implements WidgetCredentials {
  private token: string | null;
  private expiryTimers: Timer[] = [];
  private pendingRefresh: { promise: Promise<boolean>; settle: (refreshed: boolean) => void } | null = null;

  constructor(
    private readonly context: ControllerContext,
    private readonly timers: Timers,
    /** The token is over: the widget says so (TOKEN_EXPIRED) and stops recording. */
    private readonly expire: () => void,
  ) {
    this.token = context.env.boot.token;
  }

  /** The page's token until a TOKEN_REFRESH replaces it; null when the page had none. */
  get value(): string | null {
    return this.token;
  }

  current(): string {
    return this.token ?? '';
  }

  /**
   * A call was refused for an expired token: ask the EMR (REQUEST_TOKEN_REFRESH) and wait for
   * TOKEN_REFRESH. Resolves false, the widget then being expired, when none comes in time.
   */
  refresh(): Promise<boolean> {
    if (this.pendingRefresh !== null) return this.pendingRefresh.promise;
    let settle!: (refreshed: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    const timer = this.timers.later(TOKEN_REFRESH_WAIT_MS, () => {
      this.pendingRefresh = null;
      settle(false);
      this.expire();
    });
    this.pendingRefresh = {
      promise,
      settle: (refreshed) => {
        this.timers.cancel(timer);
        this.pendingRefresh = null;
        settle(refreshed);
      },
    };
    this.context.post({ type: 'REQUEST_TOKEN_REFRESH' });
    return promise;
  }

  /** TOKEN_EXPIRING ahead of the widget session's expiry, and the expiry itself. */
  schedule(widgetSession: WidgetSessionInfo): void {
    for (const timer of this.expiryTimers) this.timers.cancel(timer);
    const expiresAtMs = Date.parse(widgetSession.expiresAt);
    const now = this.serviceNow();
    const times = this.token === null ? null : jwtTimes(this.token);
    const lifetime = times === null ? expiresAtMs - now : times.expiresAtMs - times.issuedAtMs;
    const schedule = tokenSchedule(expiresAtMs, lifetime, now);
    this.expiryTimers = [
      this.timers.later(schedule.expiringInMs, () => {
        this.context.post({ type: 'TOKEN_EXPIRING', expiresInMs: Math.max(0, expiresAtMs - this.serviceNow()) });
      }),
      this.timers.later(schedule.expiredInMs, this.expire),
    ];
  }

  /** TOKEN_REFRESH: checked with the service, then used for every call from now on, without a reload. */
  async refreshWith(token: string): Promise<void> {
    const { api, store, postError } = this.context;
    let widgetSession: WidgetSessionInfo;
    try {
      widgetSession = await api.widgetSession(token);
    } catch (error) {
      const code = error instanceof WidgetApiError ? error.code : 'internal_error';
      postError('INVALID_MESSAGE', [`token: the service refused it (${code})`]);
      return;
    }
    const current = workspaceOf(store.state)?.widgetSession ?? null;
    if (
      current !== null &&
      (widgetSession.partner.id !== current.partner.id ||
        widgetSession.clinician.id !== current.clinician.id ||
        // The service opens a token's emrSessionId encounter only: another would lock this one out.
        widgetSession.emrSessionId !== current.emrSessionId)
    ) {
      postError('INVALID_MESSAGE', [
        'token: must be for the same partner, clinician and emrSessionId as the current one',
      ]);
      return;
    }
    this.token = token;
    store.dispatch({ type: 'token_refreshed', widgetSession });
    this.schedule(widgetSession);
    this.pendingRefresh?.settle(true);
  }

  /** The service's time now, as the page was told it. */
  private serviceNow(): number {
    return this.context.env.now() + this.context.env.boot.clockOffsetMs;
  }
}
