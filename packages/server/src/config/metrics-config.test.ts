import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.js';

const TOKEN = 'a-metrics-token-of-at-least-32-characters';

describe('the metrics listener settings', () => {
  it('are off unless METRICS_PORT is set, and then on a loopback address', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464, token: null });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '::1' }).metrics).toEqual({
      host: '::1',
      port: 9464,
      token: null,
    });
  });

  it('take a token, which any other address requires', () => {
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9464,
      token: TOKEN,
    });
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' })).toThrow(
      expect.objectContaining({
        problems: ['METRICS_TOKEN: is required when METRICS_HOST is not a loopback address'],
      }),
    );
  });

  it('name every problem at once', () => {
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN })).toThrow(
      expect.objectContaining({
        problems: [
          'METRICS_HOST: needs METRICS_PORT: no metrics listener runs without it',
          'METRICS_TOKEN: needs METRICS_PORT: no metrics listener runs without it',
        ],
      }),
    );
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080', METRICS_HOST: '0.0.0.0' })).toThrow(
      expect.objectContaining({
        problems: [
          'METRICS_PORT: must differ from PORT',
          'METRICS_TOKEN: is required when METRICS_HOST is not a loopback address',
        ],
      }),
    );
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(
      expect.objectContaining({ problems: ['METRICS_TOKEN: must be at least 32 characters long'] }),
    );
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(
      expect.objectContaining({ problems: ['METRICS_PORT: must be a whole number'] }),
    );
  });
});
