/**
 * Where each real recording leaves PocketSphinx's cepstral mean, heard as the worker hears it: the
 * narrowband restorer, then a fresh decoder (the model's own prior, not the one being rebuilt: each
 * recording's mean is its own either way), one utterance, 100 ms writes.
 */
import { NarrowbandRestorer } from '@chartwright/server/internal/asr/narrowband.js';
import { decoderArgs, DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { loadPocketSphinx } from '@chartwright/server/internal/asr/pocketsphinx/native.js';

import { loadRealSpeech, readRecording } from '../speech/real-speech.js';
import type { RecordingMean } from './prior.js';

/** 100 ms, as the realtime path writes. */
const CHUNK = 1_600;

export async function recordingMeans(realSpeechDirectory: string): Promise<RecordingMean[]> {
  const { recordings } = await loadRealSpeech(realSpeechDirectory);
  const library = loadPocketSphinx(DEFAULT_OPTIONS.libraryPath);
  const args = decoderArgs(DEFAULT_OPTIONS);
  const means: RecordingMean[] = [];
  for (const recording of recordings) {
    const pcm = await readRecording(recording.file);
    const restorer = new NarrowbandRestorer();
    const decoder = await library.createDecoder(args);
    try {
      decoder.startUtterance();
      for (let offset = 0; offset < pcm.length; offset += CHUNK) {
        decoder.process(restorer.process(pcm.slice(offset, offset + CHUNK)));
      }
      decoder.endUtterance();
      const mean = decoder.cepstralMean();
      if (mean === null) throw new Error('this PocketSphinx build does not expose its cepstral mean');
      means.push({ group: `${recording.source}/${recording.subset}`, mean });
    } finally {
      decoder.free();
    }
  }
  return means;
}
