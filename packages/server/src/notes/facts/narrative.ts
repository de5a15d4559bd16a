/**
 * The story of the present illness in the patient's own order: what the patient (or a companion,
 * or the clinician summing up) tells in the history that no structured fact holds — context,
 * course, what they tried — each statement put in the third person and in note style, and kept
 * only when it reads as chart text: a whole clause, no first or second person, no spoken markers.
 */
import type { Gender } from '../engines/extractive/rewrite.js';
import { toNoteSentence, toThirdPerson } from '../engines/extractive/rewrite.js';
import { isUsable, relevance } from '../engines/extractive/relevance.js';
import { noteStyle } from '../engines/extractive/style.js';
import { tokenize } from '../engines/extractive/text.js';
import { wordWeight } from '../engines/extractive/word-weights.js';
import { patientDenial } from '../engines/extractive/questions.js';
import { turnsSource, type DraftOf } from './draft.js';
import { HYPOTHETICAL } from './problems.js';
import { completed, salvage } from './register.js';
import type { Utterance } from './utterances.js';

export type NarrativeDraft = DraftOf<'narrative'>;

/** How note-worthy a statement must be to tell (the engine's word rates, docs/notes-quality.md). */
const MIN_RELEVANCE = 0.6;
const MIN_WORDS = 4;
/** Openers a chart sentence does not start with. */
const LOOSE_START = /^(?:and|but|or|so|because|that|which|who|then|also|plus|like|just|well|again|anyway)\b/i;

export interface NarrativeOptions {
  gender: Gender;
  /** The words' note rates; the rates' own builder passes none. */
  weigh?: (word: string) => number;
}

/** The statement as a chart sentence, or null when it does not read as one. */
/** The clinician's framing of what they know of the patient: "I know that you had …" is "He had …". */
const CLINICIAN_FRAME =
  /^(?:(?:and|so|now|okay) ,? )?(?:i know|i see|i understand|i remember|i noticed|i read|i am told|i was told)(?: that)? (?=you |your )/i;

function unframed(utterance: Utterance): readonly string[] {
  if (utterance.speaker !== 'clinician') return utterance.tokens;
  const frame = CLINICIAN_FRAME.exec(utterance.tokens.join(' '));
  return frame === null ? utterance.tokens : utterance.tokens.slice(frame[0].trim().split(' ').length);
}

/**
 * The "no" that answered the question before ("no, I had diarrhea last week"): the answer has been
 * read (answers.ts), and before a subject it negates nothing in the sentence it opens.
 */
const ANSWER_NO = /^No,? (?=(?:the patient|he|she|they|it|his|her|their)\b)/i;

function withoutAnswerNo(text: string): string {
  const rest = text.replace(ANSWER_NO, '');
  return rest === text ? text : `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

function chartSentence(utterance: Utterance, gender: Gender): string | null {
  const tokens = unframed(utterance);
  if (utterance.speaker === 'clinician' && /(?<![\w'])(?:i|we|let's|let us)(?![\w'])/i.test(tokens.join(' ')))
    return null;
  const rewritten = toThirdPerson(tokens, utterance.speaker, gender);
  const styled = noteStyle(rewritten, utterance.kind, utterance.speaker === 'clinician');
  if (styled === null || styled.heading) return null;
  const salvaged = salvage(toNoteSentence(styled.tokens));
  const text = salvaged === null ? null : completed(withoutAnswerNo(salvaged));
  if (text === null) return null;
  const words = text.split(/\s+/).filter((word) => /[a-z0-9]/i.test(word));
  if (words.length < MIN_WORDS || LOOSE_START.test(text)) return null;
  return text;
}

/** The history statements that read as chart sentences, before they are weighed for the note. */
function narrativeCandidates(
  utterances: readonly Utterance[],
  gender: Gender,
): { utterance: Utterance; text: string }[] {
  return utterances.flatMap((utterance) => {
    if (utterance.phase !== 'history' || utterance.question) return [];
    if (utterance.kind !== 'hpi' && utterance.kind !== 'chief_complaint') return [];
    if (!isUsable(utterance.statement) || HYPOTHETICAL.test(utterance.text)) return [];
    // A plain denial is a pertinent negative: the problem facts hold it.
    if (utterance.speaker === 'patient' && patientDenial(utterance.tokens) !== null) return [];
    const text = chartSentence(utterance, gender);
    return text === null ? [] : [{ utterance, text }];
  });
}

/**
 * A long visit tells more: below the bar for any visit, the next most note-worthy statements are
 * told until the story holds this share of the visit's words.
 */
const STORY_SHARE = 0.1;
const FILL_RELEVANCE = 0.25;

export function narrativeFacts(utterances: readonly Utterance[], options: NarrativeOptions): NarrativeDraft[] {
  const weigh = options.weigh ?? wordWeight;
  const scored = narrativeCandidates(utterances, options.gender).map((candidate) => ({
    ...candidate,
    score: relevance(candidate.utterance.statement, candidate.utterance.kind, tokenize(candidate.text), weigh),
  }));
  const budget = STORY_SHARE * utterances.reduce((sum, utterance) => sum + utterance.tokens.length, 0);
  let words = scored
    .filter((candidate) => candidate.score >= MIN_RELEVANCE)
    .reduce((sum, c) => sum + c.text.split(' ').length, 0);
  const fill = new Set(
    scored
      .filter((candidate) => candidate.score < MIN_RELEVANCE && candidate.score >= FILL_RELEVANCE)
      .sort((a, b) => b.score - a.score)
      .filter((candidate) => {
        if (words >= budget) return false;
        words += candidate.text.split(' ').length;
        return true;
      }),
  );
  return scored
    .filter((candidate) => candidate.score >= MIN_RELEVANCE || fill.has(candidate))
    .map(({ utterance, text }) => ({
      kind: 'narrative',
      topic: 'present_illness',
      text,
      statement: text,
      polarity: 'present',
      subject: { type: 'patient' },
      speaker: utterance.speaker,
      source: turnsSource([utterance.turn]),
    }));
}
