/**
 * Who is the clinician, when one microphone hears everyone: the voice that asks the questions and
 * speaks to the other person ("you", "your") more than about itself ("I", "my"). Read from the
 * recognised words, so it works on whatever voices the clustering found. Measured on the gold
 * transcripts of ACI-Bench train and valid (87 visits): the clinician has the highest score in
 * every one, including the six whose source labels doctor and patient the wrong way round (D2N034,
 * D2N038, D2N056, D2N057, D2N059, D2N082: read them) (docs/realtime.md, "Speakers with one microphone").
 */
export type SpeakerRole = 'clinician' | 'patient' | 'unknown';

const QUESTION_START =
  /^(?:(?:so|and|okay|ok|alright|now|well|um|uh)\s+)*(?:what|how|when|where|why|which|who|whose|any|anything|do|does|did|are|is|was|were|have|has|had|can|could|would|will|should)\b/;
const SECOND_PERSON = /\b(?:you|your|you're|youre|yours|yourself)\b/g;
const FIRST_PERSON = /\b(?:i|i'm|im|i've|ive|i'd|my|me|mine|myself)\b/g;

/** How much an utterance sounds like the clinician's (positive) or the patient's (negative). */
export function clinicianEvidence(text: string): number {
  const lower = text.toLowerCase();
  const question = QUESTION_START.test(lower) ? 2 : 0;
  return question + (lower.match(SECOND_PERSON)?.length ?? 0) - (lower.match(FIRST_PERSON)?.length ?? 0);
}

/** Evidence gathered per voice label, as utterances arrive. */
export class SpeakerRoles {
  private readonly evidence = new Map<string, { score: number }>();

  add(label: string, text: string): void {
    const entry = this.evidence.get(label) ?? { score: 0 };
    entry.score += clinicianEvidence(text);
    this.evidence.set(label, entry);
  }

  /**
   * The clinician is the voice with the highest score, every other voice a patient (or companion).
   * The total, not the score per word: the clustering can split off a few utterances of the
   * patient ("how are you") as a voice of its own, whose rate then beats the clinician's, whose
   * questions are diluted by long explanations (seen on flite visits D2N068 and D2N071). One voice
   * alone is the clinician only when its own words say so.
   */
  roleOf(label: string): SpeakerRole {
    const entry = this.evidence.get(label);
    if (entry === undefined) return 'unknown';
    if (this.evidence.size === 1) return entry.score > 0 ? 'clinician' : entry.score < 0 ? 'patient' : 'unknown';
    return this.clinician() === label ? 'clinician' : 'patient';
  }

  private clinician(): string | undefined {
    let best: string | undefined;
    let bestScore = -Infinity;
    for (const [label, { score }] of this.evidence) {
      if (score > bestScore) {
        best = label;
        bestScore = score;
      }
    }
    return best;
  }
}

/**
 * The roles of a whole one-microphone transcript, judged again with everything each voice said: a
 * final's role was judged when it came out, from what had been said by then, so the first few of a
 * visit can be wrong. Segments without a voice label keep their role.
 */
export function judgeRoles<T extends { text: string; speaker: SpeakerRole; speakerLabel?: string | undefined }>(
  segments: readonly T[],
): T[] {
  const roles = new SpeakerRoles();
  for (const segment of segments) if (segment.speakerLabel !== undefined) roles.add(segment.speakerLabel, segment.text);
  return segments.map((segment) =>
    segment.speakerLabel === undefined ? segment : { ...segment, speaker: roles.roleOf(segment.speakerLabel) },
  );
}
