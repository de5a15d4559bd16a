import { BlockList, isIP } from 'node:net';

/**
 * Which URLs the service POSTs webhooks to (the SSRF guard). A callback URL is the caller's to
 * choose, so without a guard a note request could make the service call its own network: the
 * database, a cloud metadata endpoint, an admin port. https only (http to hosts the operator names),
 * and never an address of the classes below unless the operator allows it. Addresses are judged
 * where the connection is made (webhooks/guarded-post.ts), so a name that resolves elsewhere later
 * (DNS rebinding) is judged on what it resolves to then.
 */

export type AddressClass =
  'unspecified' | 'loopback' | 'private' | 'link_local' | 'unique_local' | 'multicast' | 'reserved';

type Subnet = readonly [network: string, prefix: number];

/** IPv4 rules also match IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`): BlockList compares them as IPv4. */
const CLASSES: Readonly<Record<AddressClass, { v4: readonly Subnet[]; v6: readonly Subnet[] }>> = {
  unspecified: { v4: [['0.0.0.0', 8]], v6: [['::', 128]] },
  loopback: { v4: [['127.0.0.0', 8]], v6: [['::1', 128]] },
  private: {
    v4: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      // Carrier-grade NAT: a provider's internal network.
      ['100.64.0.0', 10],
    ],
    v6: [],
  },
  link_local: { v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] },
  // fec0::/10, the deprecated site-local range, is a local network all the same.
  unique_local: {
    v4: [],
    v6: [
      ['fc00::', 7],
      ['fec0::', 10],
    ],
  },
  multicast: { v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] },
  reserved: {
    v4: [
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['240.0.0.0', 4],
    ],
    v6: [
      // IPv4-compatible addresses (`::127.0.0.1`), deprecated; some stacks still route them.
      ['::', 96],
      ['100::', 64],
      ['2001:db8::', 32],
    ],
  },
};

const BLOCK_LISTS = Object.entries(CLASSES).map(([name, { v4, v6 }]) => {
  const list = new BlockList();
  for (const [network, prefix] of v4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of v6) list.addSubnet(network, prefix, 'ipv6');
  return [name as AddressClass, list] as const;
});

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The class an IP address belongs to; null for a public address. */
export function addressClass(address: string): AddressClass | null {
  const family = familyOf(address);
  // `unspecified` is listed before `reserved`, whose ::/96 holds :: too: the first match names it.
  return BLOCK_LISTS.find(([, list]) => list.check(address, family))?.[0] ?? null;
}

/** What the operator allows beyond the public https internet. */
export interface WebhookPolicy {
  /** Hosts (lower-case names or addresses) that may be called over plain http. */
  readonly allowedHttpHosts: ReadonlySet<string>;
  /** Addresses or subnets that may be called although their class is refused. */
  readonly allowedAddresses: BlockList;
}

/** Why the address may not be called (its class), or null when it may. */
export function addressRefusal(address: string, policy: WebhookPolicy): AddressClass | null {
  const refused = addressClass(address);
  if (refused === null || policy.allowedAddresses.check(address, familyOf(address))) return null;
  return refused;
}

/** A URL's host as an address, without IPv6 brackets; null when the host is a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/**
 * Why the service will not POST to `url` (a sentence for the caller), or null. Names are resolved
 * only when a delivery is made; an address written in the URL is judged now.
 */
export function urlRefusal(url: string, policy: WebhookPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  const host = parsed.hostname.toLowerCase();
  if (parsed.protocol !== 'https:' && (parsed.protocol !== 'http:' || !policy.allowedHttpHosts.has(host))) {
    return 'must be https:// (http:// only to hosts the operator allows in WEBHOOK_ALLOWED_HTTP_HOSTS)';
  }
  const address = literalAddress(host);
  const refused = address === null ? null : addressRefusal(address, policy);
  return refused === null ? null : `is an address the service does not call (${refused.replace('_', '-')})`;
}

/** `10.0.0.0/8`, `::1` or `fd00::/8`, as WEBHOOK_ALLOWED_ADDRESSES lists them; null when malformed. */
export function parseSubnet(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  if (prefix < 0 || prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export function webhookPolicy(allowedHttpHosts: readonly string[], allowedSubnets: readonly string[]): WebhookPolicy {
  const allowedAddresses = new BlockList();
  for (const text of allowedSubnets) {
    const subnet = parseSubnet(text);
    if (subnet === null) throw new Error(`not an address or subnet: ${text}`);
    allowedAddresses.addSubnet(subnet.address, subnet.prefix, subnet.family);
  }
  return { allowedHttpHosts: new Set(allowedHttpHosts.map((host) => host.toLowerCase())), allowedAddresses };
}
