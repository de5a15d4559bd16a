import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has embedded defaults for every variable', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'http://localhost:8080',
      sandboxBaseUrl: 'http://localhost:8080',
      database: { kind: 'sqlite', path: './data/chartwright.db' },
      redisUrl: null,
      keyRotationGraceSeconds: 86400,
      logLevel: 'info',
      trustProxy: 0,
      connections: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxPerAddress: 256 },
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 5_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      SANDBOX_BASE_URL: 'https://sandbox.example.com',
      DATABASE_URL: 'postgres://u@db:5432/cw',
      REDIS_URL: 'redis://cache:6379',
      KEY_ROTATION_GRACE_SECONDS: '3600',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '2',
      API_RATE_LIMIT_PER_MINUTE: '100',
      BODY_LIMIT_BYTES: '2048',
      SHUTDOWN_TIMEOUT_MS: '500',
      SHUTDOWN_DRAIN_MS: '0',
      SEED_DEMO: 'false',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      publicBaseUrl: 'https://api.example.com',
      sandboxBaseUrl: 'https://sandbox.example.com',
      database: { kind: 'postgres', url: 'postgres://u@db:5432/cw' },
      redisUrl: 'redis://cache:6379',
      keyRotationGraceSeconds: 3600,
      logLevel: 'debug',
      trustProxy: 2,
      apiRateLimitPerMinute: 100,
      bodyLimitBytes: 2048,
      shutdownTimeoutMs: 500,
      shutdownDrainMs: 0,
      seedDemo: false,
    });
  });

  it('reads the widget rate limits, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      widgetTokenRateLimitPerMinute: 600,
      widgetAuthFailuresPerMinute: 20,
      widgetApiRateLimitPerClinicianPerMinute: 300,
      widgetApiRateLimitPerPartnerPerMinute: 6000,
    });
    const config = loadConfig({
      WIDGET_TOKEN_RATE_LIMIT_PER_MINUTE: '50',
      WIDGET_AUTH_FAILURES_PER_MINUTE: '5',
      WIDGET_API_RATE_LIMIT_PER_CLINICIAN_PER_MINUTE: '60',
      WIDGET_API_RATE_LIMIT_PER_PARTNER_PER_MINUTE: '600',
    });
    expect(config).toMatchObject({
      widgetTokenRateLimitPerMinute: 50,
      widgetAuthFailuresPerMinute: 5,
      widgetApiRateLimitPerClinicianPerMinute: 60,
      widgetApiRateLimitPerPartnerPerMinute: 600,
    });
    expect(() =>
      loadConfig({ WIDGET_AUTH_FAILURES_PER_MINUTE: '0', WIDGET_API_RATE_LIMIT_PER_PARTNER_PER_MINUTE: 'x' }),
    ).toThrow(/WIDGET_AUTH_FAILURES_PER_MINUTE: must be at least 1[\s\S]*WIDGET_API_RATE_LIMIT_PER_PARTNER_PER_MINUTE/);
  });

  it('accepts TRUST_PROXY as a hop count or a list of proxy addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      '::1',
    ]);
  });

  it('refuses TRUST_PROXY=true, which would believe any client’s X-Forwarded-For, and anything not an address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: must be a hop count .*true would believe/);
    expect(() => loadConfig({ TRUST_PROXY: 'TRUE' })).toThrow(/TRUST_PROXY: must be a hop count/);
    for (const bad of ['loopback', '10.0.0.0/33', '10.0.0.1,proxy.internal', '10.0.0.0/8/1', '1.5']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be a hop count or a comma-separated/,
      );
    }
  });

  it('reads the connection limits, and refuses a headers timeout longer than the request timeout', () => {
    expect(
      loadConfig({ REQUEST_TIMEOUT_MS: '60000', HEADERS_TIMEOUT_MS: '5000', MAX_CONNECTIONS_PER_IP: '32' }).connections,
    ).toEqual({ requestTimeoutMs: 60_000, headersTimeoutMs: 5000, maxPerAddress: 32 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      'HEADERS_TIMEOUT_MS: must be at most REQUEST_TIMEOUT_MS (5000)',
    );
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '0' })).toThrow('MAX_CONNECTIONS_PER_IP: must be at least 1');
  });

  it('serves the widget app from this checkout’s build unless WIDGET_APP_DIR names another', () => {
    expect(loadConfig({}).widgetAppDir).toBe(fileURLToPath(new URL('../../../widget/dist', import.meta.url)));
    expect(loadConfig({ WIDGET_APP_DIR: ' /srv/widget ' }).widgetAppDir).toBe('/srv/widget');
  });

  it('serves the console app from this checkout’s build unless CONSOLE_APP_DIR names another', () => {
    expect(loadConfig({}).console.appDir).toBe(fileURLToPath(new URL('../../../console/dist', import.meta.url)));
    expect(loadConfig({ CONSOLE_APP_DIR: ' /srv/console ' }).console.appDir).toBe('/srv/console');
    expect(() => loadConfig({ CONSOLE_APP_DIR: ' ' })).toThrow('CONSOLE_APP_DIR: must not be empty');
  });

  it('reads sqlite: URLs and plain paths as SQLite files', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/cw.db' }).database).toEqual({
      kind: 'sqlite',
      path: '/var/lib/cw.db',
    });
  });

  it('names every bad variable and its problem at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        PUBLIC_BASE_URL: 'ftp://x',
        LOG_LEVEL: 'loud',
        KEY_ROTATION_GRACE_SECONDS: '-5',
        REDIS_URL: 'localhost:6379',
        DATABASE_URL: 'mysql://x',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT: must be a whole number',
        'PUBLIC_BASE_URL: must be an http:// or https:// URL',
        expect.stringMatching(/^LOG_LEVEL: must be one of fatal, error/),
        'KEY_ROTATION_GRACE_SECONDS: must be a whole number',
        'REDIS_URL: must be a redis:// or rediss:// URL',
        expect.stringMatching(/^DATABASE_URL: must be postgres:/),
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('rejects out-of-range numbers', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT: must be at most 65535');
  });

  it('configures the note engines and retention', () => {
    expect(loadConfig({}).notes).toEqual({
      engine: 'extractive',
      openai: null,
      retentionDays: 30,
      workers: 0,
      queueLimit: 32,
    });
    expect(
      loadConfig({
        NOTES_ENGINE: 'openai',
        NOTES_OPENAI_BASE_URL: 'http://localhost:11434/v1/',
        NOTES_OPENAI_MODEL: 'llama3.1',
        NOTES_RETENTION_DAYS: '7',
        NOTES_WORKERS: '2',
        NOTES_QUEUE_LIMIT: '0',
      }).notes,
    ).toEqual({
      engine: 'openai',
      openai: { baseUrl: 'http://localhost:11434/v1', apiKey: null, model: 'llama3.1', timeoutMs: 60_000 },
      retentionDays: 7,
      workers: 2,
      queueLimit: 0,
    });
    expect(() => loadConfig({ NOTES_WORKERS: 'two' })).toThrow('NOTES_WORKERS: must be a whole number');
  });

  it('caps realtime sessions per instance, project and key', () => {
    expect(loadConfig({}).realtime).toMatchObject({
      maxSessions: 64,
      maxSessionsPerProject: 32,
      maxSessionsPerKey: 16,
    });
    expect(
      loadConfig({ REALTIME_MAX_SESSIONS_PER_PROJECT: '8', REALTIME_MAX_SESSIONS_PER_KEY: '2' }).realtime,
    ).toMatchObject({ maxSessionsPerProject: 8, maxSessionsPerKey: 2 });
    expect(() => loadConfig({ REALTIME_MAX_SESSIONS_PER_KEY: '0' })).toThrow(
      'REALTIME_MAX_SESSIONS_PER_KEY: must be at least 1',
    );
  });

  it("admits live streams up to 80% of the recognizer's cores, a share of 0 to 100", () => {
    expect(loadConfig({}).realtime.recognizerMaxLoadPercent).toBe(80);
    expect(loadConfig({ REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '0' }).realtime.recognizerMaxLoadPercent).toBe(0);
    expect(() => loadConfig({ REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '120' })).toThrow(
      'REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: must be at most 100',
    );
    expect(() => loadConfig({ REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '0.8' })).toThrow(
      'REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: must be a whole number',
    );
  });

  it('names what the OpenAI-compatible engine is missing', () => {
    expect(() => loadConfig({ NOTES_ENGINE: 'openai' })).toThrow(
      expect.objectContaining({
        problems: [
          'NOTES_OPENAI_BASE_URL: is required when NOTES_ENGINE=openai',
          'NOTES_OPENAI_MODEL: is required when NOTES_ENGINE=openai',
        ],
      }),
    );
    expect(() => loadConfig({ NOTES_ENGINE: 'gpt' })).toThrow('NOTES_ENGINE: must be extractive or openai');
  });

  it('configures the speech recognizer engine', () => {
    expect(loadConfig({}).asr).toEqual({
      engine: 'pocketsphinx',
      vocabulary: 'clinical',
      secondPass: false,
      openai: null,
    });
    expect(
      loadConfig({
        ASR_ENGINE: 'openai',
        ASR_OPENAI_BASE_URL: 'http://whisper:8000/v1/',
        ASR_OPENAI_API_KEY: 'sk-fake',
        ASR_OPENAI_MODEL: 'whisper-1',
        ASR_OPENAI_TIMEOUT_MS: '5000',
        ASR_OPENAI_MAX_CONCURRENT_REQUESTS: '8',
      }).asr,
    ).toEqual({
      engine: 'openai',
      vocabulary: 'clinical',
      secondPass: false,
      openai: {
        baseUrl: 'http://whisper:8000/v1',
        apiKey: 'sk-fake',
        model: 'whisper-1',
        timeoutMs: 5000,
        maxConcurrentRequests: 8,
      },
    });
  });

  it('turns the PocketSphinx second pass on only when asked', () => {
    expect(loadConfig({ ASR_SECOND_PASS: 'true' }).asr.secondPass).toBe(true);
    expect(loadConfig({ ASR_SECOND_PASS: 'false' }).asr.secondPass).toBe(false);
    expect(() => loadConfig({ ASR_SECOND_PASS: 'sometimes' })).toThrow(
      expect.objectContaining({ problems: [expect.stringMatching(/^ASR_SECOND_PASS: /) as unknown] }),
    );
  });

  it('chooses the PocketSphinx vocabulary: clinical by default, or stock', () => {
    expect(loadConfig({ ASR_VOCABULARY: 'stock' }).asr.vocabulary).toBe('stock');
    expect(loadConfig({ ASR_VOCABULARY: 'clinical' }).asr.vocabulary).toBe('clinical');
    expect(() => loadConfig({ ASR_VOCABULARY: 'medical' })).toThrow(
      expect.objectContaining({ problems: ['ASR_VOCABULARY: must be clinical or stock'] }),
    );
  });

  it('names every problem of the OpenAI-compatible recognizer at once', () => {
    expect(() => loadConfig({ ASR_ENGINE: 'openai', NOTES_ENGINE: 'openai', NOTES_OPENAI_MODEL: 'llama3.1' })).toThrow(
      expect.objectContaining({
        problems: [
          'NOTES_OPENAI_BASE_URL: is required when NOTES_ENGINE=openai',
          'ASR_OPENAI_BASE_URL: is required when ASR_ENGINE=openai',
          'ASR_OPENAI_MODEL: is required when ASR_ENGINE=openai',
        ],
      }),
    );
    expect(() =>
      loadConfig({
        ASR_ENGINE: 'whisper',
        ASR_OPENAI_BASE_URL: 'ftp://whisper',
        ASR_OPENAI_TIMEOUT_MS: '10',
        ASR_OPENAI_MAX_CONCURRENT_REQUESTS: '0',
      }),
    ).toThrow(
      expect.objectContaining({
        problems: [
          'ASR_ENGINE: must be pocketsphinx or openai',
          'ASR_OPENAI_BASE_URL: must be an http:// or https:// URL',
          'ASR_OPENAI_TIMEOUT_MS: must be at least 1000',
          'ASR_OPENAI_MAX_CONCURRENT_REQUESTS: must be at least 1',
        ],
      }),
    );
  });
});
