import type { Server } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyBaseLogger } from 'fastify';

import type { ProxyTrust } from './trusted-proxies.js';

/**
 * Refuses (closes at once) a connection from an address that already holds `max` open ones, so one
 * client cannot take every socket the process can hold. Trusted proxies are exempt: behind a load
 * balancer every connection comes from its address.
 */
export function limitConnectionsPerAddress(
  server: Server,
  options: { max: number; trust: ProxyTrust; logger: FastifyBaseLogger },
): void {
  const open = new Map<string, number>();
  // Addresses refused since they reached the cap: warned about once, not once per connection.
  const refusing = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || options.trust(address, 0)) return;
    const count = open.get(address) ?? 0;
    if (count >= options.max) {
      socket.destroy();
      if (!refusing.has(address)) {
        refusing.add(address);
        options.logger.warn({ max: options.max }, 'connections refused: one address holds MAX_CONNECTIONS_PER_IP');
      }
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (left < options.max) refusing.delete(address);
    });
  });
}
