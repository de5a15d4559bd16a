import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../config/config.js';
import { LogCapture } from '@chartwright/testing/harness.js';
import { createRecognizer } from './create-recognizer.js';

describe('createRecognizer', () => {
  it('picks the engine ASR_ENGINE names', async () => {
    const logs = new LogCapture();
    const openai = await createRecognizer(
      loadConfig({
        ASR_ENGINE: 'openai',
        ASR_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        ASR_OPENAI_API_KEY: 'sk-never-logged',
        ASR_OPENAI_MODEL: 'whisper-1',
      }),
      pino({ level: 'debug' }, logs),
    );
    expect(openai.name).toBe('openai');
    expect(await openai.status()).toEqual({ available: true });
    await openai.close();
    expect(logs.text).toContain('whisper-1');
    expect(logs.text).not.toContain('sk-never-logged');

    const pocketsphinx = await createRecognizer(
      loadConfig({ REALTIME_RECOGNIZER_WORKERS: '1' }),
      pino({ level: 'silent' }),
    );
    expect(pocketsphinx.name).toBe('pocketsphinx');
    await pocketsphinx.close();
  });
});
