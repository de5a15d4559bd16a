import type { RealtimeServerEvent } from '@chartwright/protocol';

const TYPES: ReadonlySet<string> = new Set<RealtimeServerEvent['type']>([
  'started',
  'partial',
  'final',
  'ack',
  'warning',
  'error',
  'ended',
]);

/**
 * Reads a text frame of the service. The shapes are the protocol's; only the `type` is checked
 * here, so browser bundles carry no schema library. `undefined` for anything else (binary data,
 * not JSON, a type from a newer service), which the session ignores.
 */
export function parseServerEvent(data: unknown): RealtimeServerEvent | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && TYPES.has(type) ? (value as RealtimeServerEvent) : undefined;
}
