/** Who spoke a turn, as far as the transcript says. */
export type Speaker = 'clinician' | 'patient' | 'other' | 'unknown';

export interface ConversationSentence {
  /** Position of the sentence within its turn, from 0. */
  index: number;
  text: string;
}

export interface ConversationTurn {
  /** Position of the turn in the conversation, from 0: what note sentences cite as evidence. */
  index: number;
  speaker: Speaker;
  /** The label as written (`doctor`, `Dr. Lee`, `Nurse`), or null for unlabeled prose. */
  speakerLabel: string | null;
  text: string;
  sentences: ConversationSentence[];
}

export interface Conversation {
  turns: ConversationTurn[];
}
