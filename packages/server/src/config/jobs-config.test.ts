import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from './config.js';

describe('the jobs configuration', () => {
  it('runs jobs in the service by default, and webhooks only to public https addresses', () => {
    expect(loadConfig({}).jobs).toEqual({
      inService: true,
      queuePrefix: 'chartwright',
      pollMs: 1000,
      notes: { maxAttempts: 3, retryBaseMs: 2000 },
      webhooks: {
        maxAttempts: 8,
        retryBaseMs: 30_000,
        timeoutMs: 10_000,
        concurrency: 8,
        allowedHttpHosts: [],
        allowedAddresses: [],
      },
    });
  });

  it('reads the operator’s lists and switches', () => {
    const { jobs } = loadConfig({
      NOTE_JOBS_IN_SERVICE: 'false',
      QUEUE_PREFIX: 'clinic-a',
      WEBHOOK_ALLOWED_HTTP_HOSTS: ' hooks.internal , 10.0.0.5 ',
      WEBHOOK_ALLOWED_ADDRESSES: '10.0.0.0/8, ::1,fd00::/8',
    });
    expect(jobs).toMatchObject({
      inService: false,
      queuePrefix: 'clinic-a',
      webhooks: {
        allowedHttpHosts: ['hooks.internal', '10.0.0.5'],
        allowedAddresses: ['10.0.0.0/8', '::1', 'fd00::/8'],
      },
    });
  });

  it('names every bad value at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        WEBHOOK_ALLOWED_ADDRESSES: '10.0.0.0/8,intranet,10.0.0.0/33',
        QUEUE_PREFIX: 'has space',
        NOTE_JOBS_MAX_ATTEMPTS: '0',
        WEBHOOK_TIMEOUT_MS: 'soon',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual([
      'NOTE_JOBS_MAX_ATTEMPTS',
      'QUEUE_PREFIX',
      'WEBHOOK_ALLOWED_ADDRESSES',
      'WEBHOOK_TIMEOUT_MS',
    ]);
  });
});
