import { ENVIRONMENTS, LIMITS, type Environment } from '@chartwright/protocol';

import { UsageError } from './usage.js';

/**
 * Option values as the commands take them, local and remote alike; a bad one is a usage error
 * naming its option.
 */

export function parseEnvironment(value: string | undefined): Environment | undefined {
  if (value === undefined) return undefined;
  const environment = ENVIRONMENTS.find((candidate) => candidate === value);
  if (environment === undefined) throw new UsageError('--env must be test or live');
  return environment;
}

export function requireEnvironment(value: string | undefined): Environment {
  const environment = parseEnvironment(value);
  if (environment === undefined) throw new UsageError('--env is required (test or live)');
  return environment;
}

export function parseGrace(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError('--grace must be a whole number of seconds');
  if (Number(value) > LIMITS.rotationGraceMaxSeconds) {
    throw new UsageError(`--grace must be at most ${LIMITS.rotationGraceMaxSeconds} seconds`);
  }
  return Number(value);
}

export function parseSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number of seconds`);
  return Number(value);
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** Exact origins (`scheme://host[:port]`) are checked by the partner service, each named by its index. */
export function requiredOrigins(origins: string[] | undefined): string[] {
  if (origins === undefined || origins.length === 0) {
    throw new UsageError('--origin is required (repeat it for each origin allowed to embed the widget)');
  }
  return origins;
}
