/** What the diarization thread (diarization-thread.ts) and its pool (diarization-pool.ts) say to each other. */
import type { FinalEvent } from '../recognizer.js';
import type { SpeakerAttribution } from './diarizer.js';

export type AttributedFinal = Pick<FinalEvent, 'text' | 'words' | 'startMs' | 'endMs'>;

export type ToDiarizationThread =
  | { type: 'open'; stream: number }
  | { type: 'audio'; stream: number; pcm: Int16Array }
  | { type: 'attribute'; stream: number; request: number; final: AttributedFinal }
  | { type: 'close'; stream: number };

export interface FromDiarizationThread {
  type: 'attribution';
  request: number;
  attribution: SpeakerAttribution | null;
}
