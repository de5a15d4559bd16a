import { isIPv4 } from 'node:net';

import { z } from 'zod';

import { integer } from './env-values.js';

/**
 * Where `GET /metrics` is served: a listener of its own, never the public port, so the load
 * balancer never exposes it and each instance is scraped at its own address (docs/operations.md).
 */
export interface MetricsConfig {
  readonly host: string;
  readonly port: number;
  /** A scrape must bring it as `Authorization: Bearer`; null = none asked (a loopback listener). */
  readonly token: string | null;
}

/** The metrics listener's environment variables, part of the service's (config.ts). */
export const METRICS_ENV = {
  METRICS_PORT: integer(0, 65535).optional(),
  METRICS_HOST: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
  METRICS_TOKEN: z.string().trim().min(32, { error: 'must be at least 32 characters long' }).optional(),
};

type MetricsEnv = z.output<z.ZodObject<typeof METRICS_ENV>> & { PORT: number };

const LOOPBACK_HOST = '127.0.0.1';

/** Only this machine can reach it: the one case where a scrape needs no token. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

/** What is wrong with the metrics settings together, as `[variable, problem]` pairs. */
export function metricsProblems(values: MetricsEnv): [string, string][] {
  const { METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = values;
  if (port === undefined) {
    // Set alone, either would suggest metrics are served when no listener runs.
    return Object.entries({ METRICS_HOST: host, METRICS_TOKEN: token })
      .filter(([, value]) => value !== undefined)
      .map(([name]) => [name, 'needs METRICS_PORT: no metrics listener runs without it']);
  }
  const problems: [string, string][] = [];
  if (port !== 0 && port === values.PORT) problems.push(['METRICS_PORT', 'must differ from PORT']);
  if (token === undefined && !isLoopback(host ?? LOOPBACK_HOST)) {
    problems.push(['METRICS_TOKEN', 'is required when METRICS_HOST is not a loopback address']);
  }
  return problems;
}

/** The metrics listener, or null when METRICS_PORT is unset (no listener, the default). */
export function metricsConfig(values: MetricsEnv): MetricsConfig | null {
  if (values.METRICS_PORT === undefined) return null;
  return Object.freeze({
    host: values.METRICS_HOST ?? LOOPBACK_HOST,
    port: values.METRICS_PORT,
    token: values.METRICS_TOKEN ?? null,
  });
}
