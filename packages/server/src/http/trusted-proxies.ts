import { BlockList, isIP } from 'node:net';

import type { TrustProxy } from '../config/config.js';

/** Whether the address `hop` steps from the service (0: the socket's peer) is a proxy to believe. */
export type ProxyTrust = (address: string, hop: number) => boolean;

// A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d; ranges are written in IPv4.
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * TRUST_PROXY as one function, for Fastify's client address (X-Forwarded-For) and for the
 * per-address connection cap alike, so both agree on who is a proxy.
 */
export function proxyTrust(setting: TrustProxy): ProxyTrust {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  const proxies = new BlockList();
  for (const entry of setting) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const unmapped = IPV4_MAPPED.exec(address)?.[1] ?? address;
    const family = isIP(unmapped);
    return family !== 0 && proxies.check(unmapped, family === 6 ? 'ipv6' : 'ipv4');
  };
}
