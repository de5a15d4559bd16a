/**
 * What the widget page hands the app: the token from the URL, and what the server put in the page
 * (`<script id="chartwright-boot" type="application/json">`): its clock, so token expiries are
 * read against the service's time rather than a skewed local one, and the origins allowed to frame
 * the page, so a widget whose token has expired can still tell the EMR (TOKEN_EXPIRED).
 */
export interface WidgetBoot {
  token: string | null;
  /** Service time minus local time, in ms, at page load; 0 when the page did not say. */
  clockOffsetMs: number;
  frameOrigins: string[];
}

export const BOOT_ELEMENT_ID = 'chartwright-boot';

export function readBoot(search: string, bootJson: string | null, localNowMs: number): WidgetBoot {
  const token = new URLSearchParams(search).get('token');
  let serverNow: unknown;
  let frameOrigins: unknown;
  try {
    ({ serverNow, frameOrigins } = (JSON.parse(bootJson ?? '{}') ?? {}) as Record<string, unknown>);
  } catch {
    // A page without (or with broken) boot data still runs: local time, no origins before the session call.
  }
  return {
    token: token === null || token.trim() === '' ? null : token.trim(),
    clockOffsetMs: typeof serverNow === 'number' && Number.isFinite(serverNow) ? serverNow - localNowMs : 0,
    frameOrigins: Array.isArray(frameOrigins)
      ? frameOrigins.filter((origin): origin is string => typeof origin === 'string')
      : [],
  };
}
