import { describe, expect, it } from 'vitest';

import { RecognizerError } from '../recognizer.js';
import { INSTALL_COMMAND } from './config.js';
import { defaultWorkerPath, PocketSphinxRecognizer } from './engine.js';

describe('PocketSphinxRecognizer without its packages', () => {
  it('reports a missing library as unavailable, with the install command', async () => {
    const recognizer = new PocketSphinxRecognizer({ libraryPath: '/nonexistent/libpocketsphinx.so.3', workers: 1 });
    const status = await recognizer.status();
    expect(status).toEqual({
      available: false,
      reason: expect.stringContaining('/nonexistent/libpocketsphinx.so.3') as unknown,
      installHint: INSTALL_COMMAND,
    });
    expect(INSTALL_COMMAND).toMatch(/^apt-get install -y .*libpocketsphinx3.*pocketsphinx-en-us/);
    await expect(recognizer.openStream({ sampleRate: 16000 })).rejects.toMatchObject({
      code: 'recognizer_unavailable',
    } satisfies Partial<RecognizerError>);
    await recognizer.close();
  });

  it('reports a missing model as unavailable', async () => {
    const recognizer = new PocketSphinxRecognizer({ modelDirectory: '/nonexistent/model', workers: 1 });
    const status = await recognizer.status();
    expect(status.available).toBe(false);
    if (!status.available) expect(status.reason).toContain('/nonexistent/model/en-us');
    await recognizer.close();
  });

  it('runs its worker from the build when loaded from sources', () => {
    expect(defaultWorkerPath()).toMatch(/\/dist\/asr\/pocketsphinx\/worker\.js$/);
  });
});
