/** Who spoke a turn, as far as the transcript says. */
export type Speaker = 'clinician' | 'patient' | 'other' | 'unknown';

export interface ConversationSentence {
  /** Position of the sentence within its turn, from 0. */
  index: number;
  text: string;
  /**
   * Its closing mark was placed by the punctuation model (the text came without any): where the
   * sentence ends is a good guess, whether it asks is only the display's reading of its opening.
   */
  markInferred?: true;
}

export interface ConversationTurn {
  /** Position of the turn in the conversation, from 0: what note sentences cite as evidence. */
  index: number;
  speaker: Speaker;
  /** The label as written (`doctor`, `Dr. Lee`, `Nurse`), or null for unlabeled prose. */
  speakerLabel: string | null;
  text: string;
  sentences: ConversationSentence[];
  /**
   * The recognizer's words with their confidence, when the turn came from realtime segments (not
   * from typed text): what lets a note mark a negation, number or dose heard with doubt.
   */
  words?: readonly TurnWord[];
}

export interface TurnWord {
  word: string;
  /** 0–1; absent when the engine gives none. */
  confidence?: number;
}

export interface Conversation {
  turns: ConversationTurn[];
}
