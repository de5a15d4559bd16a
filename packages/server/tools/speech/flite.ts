/**
 * Speech from text with flite (Debian package `flite`): its voices are recognised far better than
 * espeak-ng's. Used by `npm run eval:asr` to speak reference dialogue; the tests speak with it too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { resampleLinear } from '@chartwright/server/internal/asr/resample.js';
import { parseWav } from '@chartwright/server/internal/asr/wav.js';

/** `text` spoken by a flite voice (`slt`, `rms`, `awb`, `kal`…), as 16 kHz mono 16-bit samples. */
export function speak(text: string, voice: string): Int16Array {
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-flite-'));
  try {
    const file = join(directory, 'speech.wav');
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    const wav = parseWav(readFileSync(file));
    return resampleLinear(wav.samples, wav.sampleRate, RECOGNIZER_SAMPLE_RATE);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
