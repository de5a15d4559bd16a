/**
 * How long the audio has stayed far below the loudest moment of the current speech: breath, room
 * noise and a line's hiss after the last word do, a word does not. The decoder session ends an
 * utterance on it together with the search's own silence (decoder-session.ts).
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { frameDbfs } from '../vad.js';

const SAMPLES_PER_FRAME = RECOGNIZER_SAMPLE_RATE / 100;

/**
 * How far below the loudest 10 ms counts as quiet. The search alone is not enough: while a word it
 * has not matched yet is being said, its best path can end in the sentence end for 0.3 s ("go
 * forward | ten meters"). 20 and 25 dB measured alike on the development set; 20 ends more of the
 * bench's tails at once (docs/performance.md).
 */
export const QUIET_BELOW_PEAK_DB = 20;

export class TrailingQuiet {
  private peakDbfs = -Infinity;
  /** 10 ms frames in a row, up to the newest, at least QUIET_BELOW_PEAK_DB below the peak. */
  private quiet = 0;

  /** Forgets the levels heard: a new utterance, or speech after silence. */
  reset(): void {
    this.peakDbfs = -Infinity;
    this.quiet = 0;
  }

  hear(pcm: Int16Array): void {
    for (let start = 0; start < pcm.length; start += SAMPLES_PER_FRAME) {
      const dbfs = frameDbfs(pcm.subarray(start, start + SAMPLES_PER_FRAME));
      this.peakDbfs = Math.max(this.peakDbfs, dbfs);
      this.quiet = dbfs < this.peakDbfs - QUIET_BELOW_PEAK_DB ? this.quiet + 1 : 0;
    }
  }

  /** 10 ms frames of quiet up to now. */
  get frames(): number {
    return this.quiet;
  }
}
