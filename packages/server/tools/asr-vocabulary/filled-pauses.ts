/**
 * Filled pauses put back into the training text. Transcripts are tidier than speech: ACI-Bench keeps
 * about one "um" or "uh" in a hundred words, each where a transcriber chose to keep it, so a model
 * learned from them expects one in few places and the search writes a short word over a spoken one
 * ("I have, um, a cough" → "i have them a cough"). Scattered through the text, they let the model
 * expect a filled pause in any gap; the recognizer then writes "um" and drops it from the final
 * (src/asr/filled-pauses.ts).
 */
import { seededRandom } from '../shared/seeded-random.js';

const INSERTED_FILLERS = ['um', 'uh'] as const;
const FILLER_SEED = 15;

/**
 * The sentences with a filled pause in about `rate` of the gaps between words, the same ones on
 * every build (a fixed-seed generator), so a rebuild reproduces the shipped model.
 */
export function withFilledPauses(sentences: readonly string[][], rate: number): string[][] {
  const next = seededRandom(FILLER_SEED);
  return sentences.map((sentence) => {
    const out: string[] = [];
    sentence.forEach((word, index) => {
      if (index > 0 && next() < rate) out.push(INSERTED_FILLERS[next() < 0.5 ? 0 : 1]);
      out.push(word);
    });
    return out;
  });
}
