/**
 * The clinician's questions and the answers they get: the last question of a clinician's turn and
 * the next turn, when someone else speaks it (the patient, or a companion answering for them). A
 * question that did not get an answer ("sorry, in the what?") is asked again: the repeat and its
 * answer count. The answer is read as said (spokenForm), since "mm-hmm" or "no." alone are the
 * answer.
 */
import type { Conversation } from '../../text/conversation.js';
import { spokenForm } from '../engines/extractive/clean.js';
import type { QuestionForm } from './answers.js';
import type { Utterance } from './utterances.js';

export interface Exchange {
  question: Utterance;
  /** The answering turn's statements (cleaned), possibly none when it was only "mm-hmm". */
  answer: Utterance[];
  /** A companion's statements right after the answer, adding to it ("it's more like five, honey"). */
  added: Utterance[];
  /** The answering turn as said, sentence by sentence. */
  spoken: string[];
  answerTurn: number;
  answerSpeaker: Utterance['speaker'];
  form: QuestionForm;
}

/** Asking whether something is over: "is the rash gone?". */
const RESOLUTION = /\b(?:gone|go away|gone away|went away|cleared up|clear up|resolved|healed)\b/;
/** Asking whether something is still absent: "no more falls?", "you haven't …, have you?". */
const NEGATIVE =
  /^(?:(?:and|so|okay|ok) )?(?:no more|no further|no new|you (?:have not|have never|did not|are not|do not)\b.*\b(?:have|did|are|do) you|(?:is|was) (?:it|that|the \w+) not\b|(?:it is|it's) not\b.*\banymore|(?:so )?(?:the|your) [a-z ]+ (?:never|does not|do not) )/;
/** Questions that take the thing asked about as given: "how long have you had the cough?". */
const PRESUPPOSING =
  /^(?:(?:and|so|okay|ok|now) )?(?:how|when|where|which|why|what (?:time|kind|color|makes|brings|happened))\b/;
const NOT_PRESUPPOSING = /^(?:(?:and|so|okay|ok|now) )?(?:how about|what about|how are you|how have you been)\b/;

/** Asking which side or where: the thing asked about is taken as given. */
const WHERE =
  /\b(?:one side or|which side|which one|left or (?:the )?right|right or (?:the )?left|go anywhere|radiate|spread|where)\b/;
/** "The back pain", "your rash": what the question speaks of as known. */
const DEFINITE =
  /\b(?:the|your|this|that|her|his) (?:[a-z]+ ){0,2}(?:pain|ache|rash|cough|fever|headaches?|swelling|numbness|tingling|symptoms?)\b/;
const PRESENCE =
  /^(?:(?:and|so|okay|ok) )?(?:do|did|have|has|are|is|any) (?:you|she|he|they|there)? ?(?:ever )?(?:have|had|get|got|notice|noticed|experience|been)\b/;

export function questionForm(text: string): QuestionForm {
  if (RESOLUTION.test(text)) return 'resolution';
  if (NEGATIVE.test(text)) return 'negative';
  if (PRESUPPOSING.test(text) && !NOT_PRESUPPOSING.test(text)) return 'presupposing';
  if (WHERE.test(text) || (DEFINITE.test(text) && !PRESENCE.test(text))) return 'presupposing';
  return 'yes_no';
}

/** A turn that asks the question back ("sorry, in the what?", "what do you mean?") answers nothing. */
const CLARIFICATION = /^(?:sorry|pardon|excuse me|what|huh|come again|say that again)\b.*\?\s*$|^what do you mean\b/;

export function exchangesOf(conversation: Conversation, utterances: readonly Utterance[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const turn of conversation.turns) {
    if (turn.speaker !== 'clinician') continue;
    const asked = utterances.filter((utterance) => utterance.turn === turn.index && utterance.question);
    const question = asked.at(-1);
    const next = conversation.turns[turn.index + 1];
    if (question === undefined || next === undefined || next.speaker === 'clinician') continue;
    // A companion adding to the answer ("it's more like five, honey") is part of it.
    const after = conversation.turns[turn.index + 2];
    const added = after?.speaker === 'other' ? after.sentences : [];
    const spoken = [...next.sentences, ...added].map((sentence) => spokenForm(sentence.text));
    if (spoken.length > 0 && spoken.every((sentence) => CLARIFICATION.test(sentence))) continue;
    exchanges.push({
      question,
      answer: utterances.filter((utterance) => utterance.turn === next.index),
      added: added.length === 0 ? [] : utterances.filter((utterance) => utterance.turn === after?.index),
      spoken,
      answerTurn: next.index,
      answerSpeaker: next.speaker,
      form: questionForm(question.text),
    });
  }
  return exchanges;
}
