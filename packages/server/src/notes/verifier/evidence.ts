/**
 * The evidence a sentence stands on: the facts it cites by id or, when it cites none (the
 * extractive engine cites turns), the facts of its turns and context fields that it mentions; and
 * the words of those turns and context fields themselves.
 */
import type { Fact } from '@chartwright/protocol';

import type { Conversation } from '../../text/conversation.js';
import type { NoteContext, NoteSentence } from '../generator.js';
import { readFact, type FactReading } from './fact-reading.js';
import { findWord } from './reading.js';

/** What a note is checked against: the visit's facts, its conversation and the caller's context. */
export interface VerifierInput {
  facts: readonly Fact[];
  conversation: Conversation;
  context: NoteContext;
}

/** The facts, read once, and indexed by id, turn and context path. */
export interface FactIndex {
  input: VerifierInput;
  byId: ReadonlyMap<string, FactReading>;
  bySource: ReadonlyMap<string, readonly FactReading[]>;
}

const sourceKeys = (fact: Fact) => [
  ...fact.source.turns.map((turn) => `turn:${turn}`),
  ...fact.source.context.map((path) => `context:${path}`),
];

export function indexFacts(input: VerifierInput): FactIndex {
  const byId = new Map<string, FactReading>();
  const bySource = new Map<string, FactReading[]>();
  for (const fact of input.facts) {
    const reading = readFact(fact);
    byId.set(fact.id, reading);
    for (const key of sourceKeys(fact)) bySource.set(key, [...(bySource.get(key) ?? []), reading]);
  }
  return { input, byId, bySource };
}

export interface SentenceEvidence {
  facts: FactReading[];
  /** Every fact of the turns and context fields it cites. */
  nearby: FactReading[];
  /** Whether the sentence named its facts itself (else they were matched from its turns). */
  citedFacts: boolean;
  /** Lower-case text of the turns and context fields it cites, and of its facts' own turns. */
  sourceText: string[];
  /** Lower-case text of the turns among them. */
  turnText: string[];
  /** Whether any of it is the conversation (else it rests on the chart alone). */
  fromConversation: boolean;
}

/** The value at a context path (`medical.allergies[0]`, `patient.dob`, `extra`) as text. */
export function contextText(context: NoteContext, path: string): string {
  let value: unknown = context;
  for (const part of path.split(/[.[\]]/).filter((piece) => piece !== '')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (value === undefined) return '';
  return (typeof value === 'string' ? value : JSON.stringify(value)).toLowerCase();
}

/** A sentence speaks of a fact when it holds its whole term, or (for a statement) two of its words. */
function mentioned(text: string, reading: FactReading): boolean {
  const found = reading.mentions.filter((word) => findWord(text, word) !== undefined).length;
  return reading.term === null
    ? found >= Math.min(2, reading.mentions.length) && found > 0
    : found === reading.mentions.length;
}

/** The facts of the sentence's own turns and context fields. */
function nearbyFacts(index: FactIndex, sentence: NoteSentence): FactReading[] {
  const keys = [
    ...sentence.evidence.turns.map((turn) => `turn:${turn}`),
    ...sentence.evidence.context.map((path) => `context:${path}`),
  ];
  const found = new Map<string, FactReading>();
  for (const key of keys) for (const reading of index.bySource.get(key) ?? []) found.set(reading.fact.id, reading);
  return [...found.values()];
}

export function evidenceOf(index: FactIndex, sentence: NoteSentence): SentenceEvidence {
  const text = sentence.text.toLowerCase();
  const cited = (sentence.facts ?? []).flatMap((id) => index.byId.get(id) ?? []);
  const nearby = nearbyFacts(index, sentence);
  const facts = cited.length > 0 ? cited : nearby.filter((reading) => mentioned(text, reading));
  const turns = new Set([...sentence.evidence.turns, ...facts.flatMap((reading) => reading.fact.source.turns)]);
  const paths = new Set([...sentence.evidence.context, ...facts.flatMap((reading) => reading.fact.source.context)]);
  const { conversation, context } = index.input;
  const turnText = [...turns].map((turn) => conversation.turns[turn]?.text.toLowerCase() ?? '');
  const sourceText = [
    ...turnText,
    ...[...paths].map((path) => contextText(context, path)),
    ...facts.map((reading) => reading.text),
  ];
  return { facts, nearby, citedFacts: cited.length > 0, sourceText, turnText, fromConversation: turns.size > 0 };
}
