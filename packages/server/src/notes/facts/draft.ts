import type { Fact } from '@chartwright/protocol';

/** A fact before it has an id and before its certainty is judged from the recognizer's words. */
export type FactDraft = Fact extends infer F ? (F extends Fact ? Omit<F, 'id' | 'certainty'> : never) : never;
export type DraftOf<K extends Fact['kind']> = Extract<FactDraft, { kind: K }>;

/** Evidence of a draft made from conversation turns. */
export const turnsSource = (turns: readonly number[]) => ({
  turns: [...new Set(turns)].sort((a, b) => a - b),
  context: [] as string[],
});
