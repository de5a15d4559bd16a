/**
 * A reference dialogue as audio and as the words a perfect recognizer would write. Each turn is
 * put in spoken form (spoken-form.ts) and flite speaks exactly those words, the clinician in one
 * voice and everyone else in the other, with a short pause of room noise between turns: the
 * reference is then what was said, not what flite made of digits and abbreviations.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';

import { speak } from '../speech/flite.js';
import { concatPcm, roomNoise } from '../speech/pcm.js';
import { scoredWords, spokenWords } from '../speech/spoken-form.js';

export interface Voices {
  clinician: string;
  patient: string;
}

/** Where one speaker's turn lies in the audio: a word timed inside it was said by that speaker. */
export interface SpokenTurn {
  speaker: 'clinician' | 'patient';
  startMs: number;
  endMs: number;
}

export interface DialogueAudio {
  samples: Int16Array;
  turns: SpokenTurn[];
  /** The spoken words as word error rate counts them (scoredWords), in order. */
  reference: string[];
  seconds: number;
}

const TURN_GAP_MS = 400;

export function dialogueAudio(dialogue: string, voices: Voices): DialogueAudio {
  const parts: Int16Array[] = [roomNoise(500)];
  const reference: string[] = [];
  const turns: SpokenTurn[] = [];
  let samplesSoFar = parts[0]?.length ?? 0;
  const ms = (samples: number): number => (samples * 1000) / RECOGNIZER_SAMPLE_RATE;
  parseConversation(dialogue).turns.forEach((turn, index) => {
    const sentences = turn.sentences
      .map((sentence) => spokenWords(sentence.text).join(' '))
      .filter((text) => text !== '');
    if (sentences.length === 0) return;
    const speaker = turn.speaker === 'clinician' ? 'clinician' : 'patient';
    // Sentence ends stay in the text so flite pauses between sentences as a speaker would.
    const speech = speak(`${sentences.join('. ')}.`, voices[speaker]);
    const gap = roomNoise(TURN_GAP_MS, 40, index + 2);
    parts.push(speech, gap);
    turns.push({ speaker, startMs: ms(samplesSoFar), endMs: ms(samplesSoFar + speech.length) });
    samplesSoFar += speech.length + gap.length;
    for (const text of sentences) reference.push(...scoredWords(text));
  });
  const samples = concatPcm(parts);
  return { samples, turns, reference, seconds: samples.length / RECOGNIZER_SAMPLE_RATE };
}
