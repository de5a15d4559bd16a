import { isIP } from 'node:net';

import { z } from 'zod';

/** Proxies whose X-Forwarded-For is believed: how many stand in front (0: none), or their addresses and ranges. */
export type TrustProxy = number | readonly string[];

/** An IPv4 or IPv6 address, or a CIDR range of either. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: how many proxies stand in front of the service (a hop count), or which addresses are
 * the proxies (IPs and CIDR ranges). `true` (believe any X-Forwarded-For) is refused: it would let
 * every client choose its own address, and with it escape the per-IP limits.
 */
export const trustProxy = z
  .string()
  .trim()
  .refine((value) => value.toLowerCase() !== 'true', {
    error:
      'must be a hop count (such as 1) or a comma-separated list of proxy addresses or CIDR ranges; ' +
      'true would believe an X-Forwarded-For sent by any client',
  })
  .transform((value, context): TrustProxy => {
    if (value.toLowerCase() === 'false') return 0;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `must be a hop count or a comma-separated list of IP addresses or CIDR ranges; not one: ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
      });
      return z.NEVER;
    }
    return Object.freeze(entries);
  });
