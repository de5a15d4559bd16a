import type { Conversation, ConversationSentence, Speaker } from '../../../text/conversation.js';

import { cleanSpeech } from './clean.js';
import { phraseAt } from './text.js';

/**
 * Candidate statements: every sentence of every turn, with long spoken sentences broken at the
 * places speakers start a new thought ("okay so …", "now …", "on your lung exam …"). ASR
 * transcripts often have no punctuation at all, so a turn would otherwise be one 200-word
 * "sentence" mixing small talk, findings and plans.
 */
export interface Statement {
  /** Turns the statement comes from (the evidence). */
  turns: number[];
  speaker: Speaker;
  /** Conversation order: statements sort by this. */
  order: number;
  /** Where in the visit, 0 (start) to 1 (end). */
  position: number;
  /** Cleaned words and punctuation, as said (before person rewriting). */
  tokens: string[];
  /** The cleaned text in lower case, for cue matching. */
  lower: string;
  /** The clause as said, in lower case: greetings and small talk show before cleaning. */
  raw: string;
  /** A question (asked, not stated). */
  question: boolean;
}

/** Word sequences that start a new clause in running speech. */
const CLAUSE_OPENERS: readonly string[][] = [
  'okay',
  'ok',
  'alright',
  'all right',
  'so',
  'now',
  'and then',
  'but',
  'yeah',
  'yes',
  'hey',
  "let's",
  'let us',
  'on your',
  'on the',
  'on my',
  'on physical',
  'on exam',
  'on examination',
  'looking at',
  'looking here',
  'i am going',
  "i'm gonna",
  "i'm going",
  'i am gonna',
  'i want',
  'i wanna',
  'i do want',
  'i would like',
  "i'd like",
  'i think',
  'we will',
  "we'll",
  "we're gonna",
  'we are going',
  'for your',
  'as for',
  'in terms of',
  'it looks like',
  'it sounds like',
  'which is',
  'how about',
  'what about',
  'is there',
].map((phrase) => phrase.split(' '));

/**
 * Questions start a clause even right after another opener ("let's now do you feel sick …"), so
 * that the question, and the answer it gets, can be told apart from what was stated.
 */
const QUESTION_OPENERS: readonly string[][] = [
  'do you',
  'did you',
  'are you',
  'were you',
  'have you',
  'has it',
  'is it',
  'does it',
  'what is your',
  'what are your',
  'what do you',
  'what did you',
  'how is your',
  'how are you',
  'how have you',
  'how long',
  'how often',
  'how much',
  'when did you',
  'where is',
].map((phrase) => phrase.split(' '));

const MIN_CLAUSE = 5;
const MAX_CLAUSE = 32;
/** Punctuated sentences up to this length are kept whole: their speaker already ended them. */
const SPLIT_ABOVE = 20;

/** Words a complete clause does not end with: splitting after one leaves two fragments. */
const DANGLING = new Set(
  (
    'and or but the a an of to for on in with at i am is are was were also then that my your his her their ' +
    'just so because if as about from by into we you he she they it not do did have has be been will would ' +
    'can could should going want like some any this these those our me him them'
  ).split(' '),
);

function splitClauses(sentence: string): string[] {
  const words = sentence.split(' ').filter((word) => word !== '');
  if (words.length <= SPLIT_ABOVE) return [sentence];
  const low = words.map((word) => word.toLowerCase().replace(/^[,;]+|[,;]+$/g, ''));
  const clauses: string[] = [];
  let start = 0;
  for (let index = 1; index < words.length - 1; index++) {
    const length = index - start;
    const asks = length >= 1 && QUESTION_OPENERS.some((phrase) => phraseAt(low, index, phrase));
    const opens = length >= MIN_CLAUSE && CLAUSE_OPENERS.some((phrase) => phraseAt(low, index, phrase));
    // Past the maximum length, any "and" will do: a 60-word run-on is no statement.
    const dangling = DANGLING.has(low[index - 1] ?? '');
    if (!dangling && (asks || opens || (length >= MAX_CLAUSE && low[index] === 'and'))) {
      clauses.push(words.slice(start, index).join(' '));
      start = index;
    }
  }
  clauses.push(words.slice(start).join(' '));
  return clauses;
}

/** A wh-word before its subject opens a clause, not a question: "what we are going to do is …", "when you bend". */
const QUESTION_START =
  /^(?:tell me (?:about|what|how|more|when|where)|describe|do|does|did|are|is|was|were|have|has|had|can|could|would|will|any|anything|how|ever|or)\b(?! (?:i|we) (?:want|would|will|am|think|do|need|recommend|like))|^(?:what|when|where|why|which|who)\b(?! (?:i|we|you|he|she|they|it)\b)/;

/**
 * A clinician's question inside running speech ("so tell me have you experienced any numbness",
 * "and any other symptoms like a cough or dizziness", though not "call if you have any other symptoms").
 */
const INLINE_QUESTION =
  /\b(?:have you (?:had|experienced|noticed|felt|been having|ever had)|do you (?:have|get|feel|notice)|did you (?:have|notice|feel)|are you (?:having|experiencing|noticing)|any kind of|make sure (?:that )?(?:you|he|she) (?:are|is|have|has|do|does) not (?:having|experiencing|had|have|get|getting)|(?:just )?(?:want|wanted) to make sure$|(?:is|does) (?:that|this|it) (?:painful|tender|sore|uncomfortable|hurt)$|any (?:pain|tenderness|discomfort)$|(?<!\bif (?:you|he|she|they) (?:have|has|get|gets|notice|notices|develop|develops) )any other (?:symptoms|problems|issues|complaints))\b/;

const asksInline = (speaker: Speaker, lower: string) => speaker === 'clinician' && INLINE_QUESTION.test(lower);

function isQuestion(raw: string, cleanedLower: string): boolean {
  return /\?\s*$/.test(raw) || QUESTION_START.test(cleanedLower);
}

/**
 * Unpunctuated recognizer text: a clinician's turn of a word or two that gets an answer ("vomiting"
 * … "no") is a question, as said with a rising voice.
 */
const TERSE_QUESTION_WORDS = 3;
const asksTersely = (speaker: Speaker, tokens: readonly string[], sentences: number, answered: boolean) =>
  speaker === 'clinician' && answered && sentences === 1 && tokens.length <= TERSE_QUESTION_WORDS;

/** Every sentence (or clause of a long one) of the conversation as a candidate statement. */
const TAG_QUESTION =
  /\S.*[\s,](?:okay|ok|right|alright|all right|correct|yeah|sound good|does that sound good|does that make sense|is that okay|you know|got it|understand|hmm)\s*\?\s*$/i;

/** A sentence that only says what is examined next ("So on exam of your right ankle."). */
const EXAM_LEAD_IN =
  /^(?:(?:so|okay|and|now),? )*on (?:(?:your|his|her|their|the patient's|physical) )?(?:\w+ )?exam(?:ination)?(?: of (?:your|his|her|their|the) [a-z ]+)?[.:]?$/i;

/**
 * A lead-in said as a sentence of its own (a pause after it, or a typist's full stop) belongs to
 * the finding after it: "So on exam of your right ankle. There is swelling …" is one finding.
 */
function withLeadInsJoined(sentences: readonly ConversationSentence[]): ConversationSentence[] {
  const joined: ConversationSentence[] = [];
  for (const sentence of sentences) {
    const previous = joined.at(-1);
    if (previous !== undefined && EXAM_LEAD_IN.test(previous.text.trim())) {
      joined[joined.length - 1] = {
        ...sentence,
        index: previous.index,
        text: `${previous.text.trim().replace(/[.:]$/, '')} ${sentence.text.charAt(0).toLowerCase()}${sentence.text.slice(1)}`,
      };
    } else joined.push(sentence);
  }
  return joined;
}

/** A clinician's sentence that only says why they ask ("Just wanna make sure."): the sentence before it asked. */
const CHECKING = /^(?:i )?(?:just )?(?:(?:want|wanted) to|wanna) make sure[.!?]?$|^just checking[.!?]?$/i;

export function extractStatements(conversation: Conversation): Statement[] {
  const statements: Statement[] = [];
  const total = Math.max(1, conversation.turns.length - 1);
  for (const turn of conversation.turns) {
    let part = 0;
    const next = conversation.turns[turn.index + 1];
    const answered = next !== undefined && next.speaker !== turn.speaker;
    const sentences = withLeadInsJoined(turn.sentences);
    for (const [position, sentence] of sentences.entries()) {
      // A clause of a question ("when you cough, is there blood?") is part of the question; a
      // statement closed by a tag ("…from your heart failure, okay?") is still a statement.
      const asks = /\?\s*$/.test(sentence.text) && !TAG_QUESTION.test(sentence.text);
      // A sentence closed with a full stop was said as a statement, whatever word it opens with
      // ("When I try to be active, I can't catch my breath."); without marks, the opening decides.
      // A full stop the punctuation model placed says where the sentence ends, not how it was said.
      const states = /[.!]\s*$/.test(sentence.text) && sentence.markInferred !== true;
      const clinician = turn.speaker === 'clinician';
      // Why the question before was asked is no statement of its own, and makes that one a question.
      if (clinician && position > 0 && CHECKING.test(sentence.text.trim())) continue;
      const checked = clinician && CHECKING.test(sentences[position + 1]?.text.trim() ?? '');
      for (const clause of splitClauses(sentence.text)) {
        const tokens = cleanSpeech(clause);
        part++;
        if (tokens.length === 0) continue;
        const lower = tokens.join(' ').toLowerCase();
        statements.push({
          turns: [turn.index],
          speaker: turn.speaker,
          order: turn.index * 1000 + part,
          position: turn.index / total,
          tokens,
          lower,
          raw: clause.toLowerCase(),
          question:
            asks ||
            checked ||
            (!states &&
              (isQuestion(clause, lower) ||
                asksInline(turn.speaker, lower) ||
                asksTersely(turn.speaker, tokens, turn.sentences.length, answered))),
        });
      }
    }
  }
  return statements;
}
