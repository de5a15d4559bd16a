/**
 * Audio through a recognizer's real streaming path: 100 ms frames, as fast as the recognizer
 * decodes them (never so far ahead that the stream fails as overloaded), then `end()` for the last
 * utterance. Returns the finals' text in order.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import type { RecognizerErrorEvent, RecognizerStream } from '@chartwright/server/internal/asr/recognizer.js';

const FRAME = RECOGNIZER_SAMPLE_RATE / 10;
/** Well under the stream's own limit (10 s by default), so pacing never trips the overload check. */
const MAX_AHEAD = RECOGNIZER_SAMPLE_RATE * 2;

export type PacedStream = RecognizerStream & { readonly pendingSamples: number };

export async function transcribe(stream: PacedStream, samples: Int16Array): Promise<string> {
  const finals: string[] = [];
  const failures: RecognizerErrorEvent[] = [];
  stream.on('final', (final) => finals.push(final.text));
  stream.on('error', (error) => failures.push(error));
  // Checked through a call: the listener changes `failures` between awaits.
  const failed = (): boolean => failures.length > 0;
  for (let offset = 0; offset < samples.length && !failed(); offset += FRAME) {
    while (stream.pendingSamples > MAX_AHEAD && !failed()) await sleep(5);
    stream.write(samples.slice(offset, offset + FRAME));
  }
  await stream.end();
  const [failure] = failures;
  if (failure !== undefined) throw new Error(`the recognizer failed: ${failure.code}: ${failure.message}`);
  return finals.join(' ');
}
