import { z } from 'zod';

import { parseSubnet } from '../webhooks/address-policy.js';
import { boolean, integer } from './env-values.js';

/** Asynchronous notes and their webhooks (docs/operations.md, "Note workers"). */
export interface JobsConfig {
  /**
   * Whether the service process also runs note and webhook jobs; false when separate `chartwright
   * worker` processes do all of them.
   */
  readonly inService: boolean;
  /** Prefix of the queue's Redis keys, so deployments can share a Redis. */
  readonly queuePrefix: string;
  /** Without Redis: how often the in-process queue looks in the database for work another process left. */
  readonly pollMs: number;
  readonly notes: {
    /** Runs of a note's job before it is `failed`. */
    readonly maxAttempts: number;
    /** The wait before a failed run's retry; each next wait doubles. */
    readonly retryBaseMs: number;
  };
  readonly webhooks: {
    readonly maxAttempts: number;
    readonly retryBaseMs: number;
    readonly timeoutMs: number;
    /** Deliveries one process makes at once. */
    readonly concurrency: number;
    /** Hosts that may be called over plain http. */
    readonly allowedHttpHosts: readonly string[];
    /** Addresses or subnets that may be called although private, loopback, link-local… */
    readonly allowedAddresses: readonly string[];
  };
}

const list = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== ''),
);

/** The jobs' environment variables, part of the service's (config.ts). */
export const JOBS_ENV = {
  NOTE_JOBS_IN_SERVICE: boolean.default(true),
  NOTE_JOBS_MAX_ATTEMPTS: integer(1, 20).default(3),
  NOTE_JOBS_RETRY_BASE_MS: integer(1, 3_600_000).default(2_000),
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, { error: 'must be 1 to 64 letters, digits or _ . : -' })
    .default('chartwright'),
  QUEUE_POLL_MS: integer(50, 60_000).default(1_000),
  WEBHOOK_MAX_ATTEMPTS: integer(1, 30).default(8),
  WEBHOOK_RETRY_BASE_MS: integer(1, 86_400_000).default(30_000),
  WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  WEBHOOK_CONCURRENCY: integer(1, 1_000).default(8),
  WEBHOOK_ALLOWED_HTTP_HOSTS: list.default([]),
  WEBHOOK_ALLOWED_ADDRESSES: list
    .refine((entries) => entries.every((entry) => parseSubnet(entry) !== null), {
      error: 'must be IP addresses or subnets (10.0.0.0/8, ::1, fd00::/8), comma-separated',
    })
    .default([]),
};

type JobsEnv = z.output<z.ZodObject<typeof JOBS_ENV>>;

export function jobsConfig(values: JobsEnv): JobsConfig {
  return Object.freeze({
    inService: values.NOTE_JOBS_IN_SERVICE,
    queuePrefix: values.QUEUE_PREFIX,
    pollMs: values.QUEUE_POLL_MS,
    notes: Object.freeze({ maxAttempts: values.NOTE_JOBS_MAX_ATTEMPTS, retryBaseMs: values.NOTE_JOBS_RETRY_BASE_MS }),
    webhooks: Object.freeze({
      maxAttempts: values.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: values.WEBHOOK_RETRY_BASE_MS,
      timeoutMs: values.WEBHOOK_TIMEOUT_MS,
      concurrency: values.WEBHOOK_CONCURRENCY,
      allowedHttpHosts: Object.freeze([...values.WEBHOOK_ALLOWED_HTTP_HOSTS]),
      allowedAddresses: Object.freeze([...values.WEBHOOK_ALLOWED_ADDRESSES]),
    }),
  });
}
