/** The clinician signed in to the demo EMR. A real EMR takes these from its own login session. */
export interface Clinician {
  name: string;
  email: string;
  emrUserId: string;
}

export class WidgetTokenError extends Error {
  override readonly name = 'WidgetTokenError';

  constructor(
    message: string,
    /** The service's status and error code when it answered; absent when it could not be reached. */
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

interface TokenEnvelope {
  success?: boolean;
  data?: { token?: unknown; expiresAt?: unknown };
  error?: { code?: unknown };
}

/**
 * The partner backend's one job: mint widget tokens with the partner key, which stays on this
 * server (POST {widget_host}/api/widget/token with X-Partner-Key).
 */
export class WidgetTokenMinter {
  readonly #endpoint: string;
  readonly #partnerKey: string;

  constructor(options: { chartwrightUrl: string; partnerKey: string }) {
    this.#endpoint = new URL('/api/widget/token', options.chartwrightUrl).href;
    this.#partnerKey = options.partnerKey;
  }

  async mint(clinician: Clinician, emrSessionId: string): Promise<{ token: string; expiresAt: string }> {
    let response: Response;
    try {
      response = await fetch(this.#endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-partner-key': this.#partnerKey },
        body: JSON.stringify({ userEmail: clinician.email, emrUserId: clinician.emrUserId, emrSessionId }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new WidgetTokenError(
        `Chartwright could not be reached at ${this.#endpoint}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as TokenEnvelope;
    const { token, expiresAt } = body.data ?? {};
    if (response.ok && typeof token === 'string' && typeof expiresAt === 'string') return { token, expiresAt };
    const code = typeof body.error?.code === 'string' ? body.error.code : undefined;
    throw new WidgetTokenError(
      `Chartwright refused the widget token: ${response.status} ${code ?? 'unexpected answer'}`,
      response.status,
      code,
    );
  }
}
