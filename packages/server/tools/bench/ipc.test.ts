import { describe, expect, it } from 'vitest';

import { recognizerEnvironment } from './ipc.js';

describe('the recognizer settings a bench run takes from its environment', () => {
  it('passes the recognizer settings on and nothing else', () => {
    expect(
      recognizerEnvironment({
        ASR_SECOND_PASS: 'true',
        ASR_VOCABULARY: 'stock',
        REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '0',
        DATABASE_URL: 'postgres://x',
        PATH: '/bin',
      }),
    ).toEqual({ ASR_SECOND_PASS: 'true', ASR_VOCABULARY: 'stock', REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '0' });
    expect(recognizerEnvironment({})).toEqual({});
  });
});
