import { describe, expect, it } from 'vitest';

import { addressClass, addressRefusal, urlRefusal, webhookPolicy } from './address-policy.js';

const STRICT = webhookPolicy([], []);

describe('the classes of addresses webhooks are never sent to', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries, in either notation.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    // IPv4-compatible, deprecated, still routed by some stacks.
    ['::127.0.0.1', 'reserved'],
  ])('%s is %s', (address, expected) => {
    expect(addressClass(address)).toBe(expected);
    expect(addressRefusal(address, STRICT)).toBe(expected);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(addressClass(address)).toBeNull();
    },
  );

  it('allows what the operator allows, and only that', () => {
    const policy = webhookPolicy([], ['127.0.0.1/32', 'fd00::/8']);
    expect(addressRefusal('127.0.0.1', policy)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', policy)).toBeNull();
    expect(addressRefusal('fd00::5', policy)).toBeNull();
    expect(addressRefusal('127.0.0.2', policy)).toBe('loopback');
    expect(addressRefusal('::1', policy)).toBe('loopback');
    expect(addressRefusal('10.0.0.1', policy)).toBe('private');
  });
});

describe('callback URLs', () => {
  it('must be https unless the operator allows the host over http', () => {
    expect(urlRefusal('https://hooks.example.com/chartwright', STRICT)).toBeNull();
    expect(urlRefusal('http://hooks.example.com/chartwright', STRICT)).toMatch(/must be https/);
    const allowed = webhookPolicy(['Hooks.Internal'], []);
    expect(urlRefusal('http://hooks.internal/x', allowed)).toBeNull();
    expect(urlRefusal('http://other.internal/x', allowed)).toMatch(/must be https/);
    expect(urlRefusal('ftp://hooks.example.com/x', allowed)).toMatch(/must be https/);
  });

  it('refuses an address written in the URL at once, in every notation', () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://0.0.0.0/hook',
    ]) {
      expect(urlRefusal(url, STRICT), url).toMatch(/is an address the service does not call/);
    }
  });

  it('refuses credentials in the URL, and leaves names to be judged when they are resolved', () => {
    expect(urlRefusal('https://user:pass@hooks.example.com/', STRICT)).toMatch(/user name or password/);
    expect(urlRefusal('https://localhost/hook', STRICT)).toBeNull();
  });
});
