import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { speak } from '../asr/eval/flite.js';
import { PocketSphinxRecognizer } from '../asr/pocketsphinx/engine.js';

/** Real recorded speech from Debian's pocketsphinx-testdata: 16 kHz, 16-bit, mono "go forward ten meters". */
export const GOFORWARD = '/usr/share/pocketsphinx/test/data/goforward.raw';

const INSTALL = 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us pocketsphinx-testdata flite';

export function fliteInstalled(): boolean {
  try {
    execFileSync('flite', ['-lv'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `sentence` spoken by flite (the `slt` voice unless told), as 16 kHz mono 16-bit samples. */
export function synthesizeSpeech(sentence: string, voice = 'slt'): Int16Array {
  return speak(sentence, voice);
}

/**
 * What the recognizer tests need and this machine lacks. Locally those tests are skipped when
 * something is missing; in CI (.ci/run installs everything) a missing piece fails the run instead.
 */
export async function missingSpeechTools(): Promise<string[]> {
  const probe = new PocketSphinxRecognizer({ workers: 1 });
  const status = await probe.status();
  await probe.close();
  const missing = [
    ...(status.available ? [] : [status.reason]),
    ...(existsSync(GOFORWARD) ? [] : [`${GOFORWARD} (pocketsphinx-testdata)`]),
    ...(fliteInstalled() ? [] : ['flite']),
  ];
  if (missing.length > 0 && process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(`recognizer tests may not be skipped in CI; missing: ${missing.join('; ')}. Install: ${INSTALL}`);
  }
  return missing;
}
