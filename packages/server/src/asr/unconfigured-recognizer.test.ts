import { describe, expect, it } from 'vitest';

import { INSTALL_COMMAND } from './pocketsphinx/config.js';
import { UNCONFIGURED_RECOGNIZER } from './unconfigured-recognizer.js';

describe('UNCONFIGURED_RECOGNIZER', () => {
  it('is unavailable, and says how to install the default engine', async () => {
    expect(await UNCONFIGURED_RECOGNIZER.status()).toEqual({
      available: false,
      reason: 'no speech recognizer is configured',
      installHint: INSTALL_COMMAND,
    });
    await expect(UNCONFIGURED_RECOGNIZER.openStream({ sampleRate: 16_000 })).rejects.toMatchObject({
      code: 'recognizer_unavailable',
      message: 'no speech recognizer is configured',
    });
  });
});
