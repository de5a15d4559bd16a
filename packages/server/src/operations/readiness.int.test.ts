import { describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer } from '../asr/index.js';
import { createHarness } from '@chartwright/testing/harness.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';

const missing = await missingSpeechTools();

describe.skipIf(missing.length > 0)('readiness with the speech recognizer installed', () => {
  it('reports the recognizer ok', async () => {
    const recognizer = new PocketSphinxRecognizer({ workers: 1 });
    const h = await createHarness({ recognizer });
    try {
      const response = await h.request({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', recognizer: 'ok' } });
    } finally {
      await h.close();
      await recognizer.close();
    }
  });
});
