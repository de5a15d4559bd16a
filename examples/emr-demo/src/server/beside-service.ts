import type { AddressInfo } from 'node:net';

import { startEmrDemo, type EmrDemo } from './emr-server.js';

/** What `npm start` hands over of the running service: its address, its widget host and the demo partner. */
export interface ServiceBesideDemo {
  /** Where the service listens (`server.address()`). */
  address: AddressInfo;
  widgetBaseUrl: string;
  /** The demo partner for this origin: created on first start, its key renewed on later ones. */
  seedDemoPartner(origin: string): Promise<{ partnerKey: string }>;
}

export type DemoSettings = { enabled: false } | { enabled: true; port: number | null };

/** DEMO_EMR (default true) and DEMO_EMR_PORT (default: the service's port + 1); every problem at once. */
export function demoSettings(env: Readonly<Record<string, string | undefined>>): DemoSettings {
  const problems: string[] = [];
  const enabled = (env['DEMO_EMR'] ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0', 'yes', 'no'].includes(enabled)) problems.push('DEMO_EMR: must be true or false');
  const port = (env['DEMO_EMR_PORT'] ?? '').trim();
  if (port !== '' && !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    problems.push('DEMO_EMR_PORT: must be a whole number from 1 to 65535');
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  if (['false', '0', 'no'].includes(enabled)) return { enabled: false };
  return { enabled: true, port: port === '' ? null : Number(port) };
}

/** How this process reaches the service: a wildcard bind is reached on loopback. */
function serviceUrl({ address, family, port }: AddressInfo): string {
  if (family === 'IPv6') return `http://[${address === '::' ? '::1' : address}]:${port}`;
  return `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${port}`;
}

/**
 * Starts the demo EMR for `npm start` on an origin of its own: another port, and another host name
 * than the widget's (localhost against 127.0.0.1), so the embed is cross-origin and cross-site as
 * it is in production.
 */
export async function startDemoBesideService(
  service: ServiceBesideDemo,
  settings: { port: number | null },
): Promise<EmrDemo> {
  const port = settings.port ?? service.address.port + 1;
  const widgetHost = new URL(service.widgetBaseUrl).hostname;
  const origin = `http://${widgetHost === '127.0.0.1' ? 'localhost' : '127.0.0.1'}:${port}`;
  const { partnerKey } = await service.seedDemoPartner(origin);
  return startEmrDemo({
    chartwrightUrl: serviceUrl(service.address),
    widgetUrl: `${service.widgetBaseUrl}/widget`,
    partnerKey,
    host: '127.0.0.1',
    port,
    publicUrl: origin,
  });
}
