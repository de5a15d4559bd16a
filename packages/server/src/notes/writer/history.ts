/**
 * The history sections written from facts: the present illness (its story, then the symptoms it
 * has not told), the review of systems by system, and the past medical, surgical, family and
 * social history — in the third person, in chart words.
 */
import type { Fact, FactOf } from '@chartwright/protocol';

import { WHOLE_HISTORY_ITEMS } from '../facts/history.js';
import type { RosSystem } from '../facts/lexicon/ros-systems.js';
import { isDiagnosis, systemOf } from '../facts/systems.js';
import type { FactSheet } from '../facts/sheet.js';
import { toThirdPerson, type Gender } from '../engines/extractive/rewrite.js';
import { stem } from '../engines/extractive/text.js';
import { capitalize, charted, listOf, ofKind, sentence, subjectWord, type Written } from './phrasing.js';

/** "Hypertension" in running text is "hypertension"; an acronym ("COPD") stays as it is. */
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

type Problem = FactOf<'problem'>;

const patientsOwn = (fact: Fact) => fact.subject.type === 'patient';

/** "a cough for 2 weeks, worse at night": the problem with what was said about it. */
export function problemPhrase(problem: Problem, gender: Gender): string {
  const details = [
    problem.severity === undefined || problem.text.includes(problem.severity) ? undefined : problem.severity,
  ].filter((part): part is string => part !== undefined);
  const head = [...details, problem.text].join(' ');
  // Modifiers are the patient's words ("worse when i bend over"): charted in the third person.
  const modifiers = problem.modifiers.map((modifier) =>
    toThirdPerson(modifier.split(' '), 'patient', gender).join(' '),
  );
  const when = [problem.duration, problem.onset, problem.timing, ...modifiers].filter(
    (part): part is string => part !== undefined && part !== '',
  );
  return when.length === 0 ? head : `${head} ${when.join(', ')}`;
}

/**
 * Whether a narrative statement already tells a problem (so it is not said twice): it names it, or
 * it comes from a turn the problem was said in and speaks of the same thing ("her back has been
 * hurting" tells "back pain").
 */
function told(problem: Problem, narratives: readonly FactOf<'narrative'>[]): boolean {
  const words = problem.name.split(' ').filter((word) => word.length > 3 && word !== 'pain');
  return narratives.some((narrative) => {
    const statement = narrative.statement.toLowerCase();
    if (statement.includes(problem.name)) return true;
    const sameTurn = narrative.source.turns.some((turn) => problem.source.turns.includes(turn));
    // "Lightheadedness" is told by "he feels lightheaded", "bloating" by "bloated".
    return sameTurn && words.some((word) => new RegExp(`\\b${stem(word.replace(/ness$/, ''))}`).test(statement));
  });
}

/** A story that does not say why the patient came opens with it: "She presents with cough." */
function presentation(sheet: FactSheet, narratives: readonly FactOf<'narrative'>[]): Written[] {
  const reason = sheet.chiefComplaint;
  if (reason === null) return [];
  if (narratives.some((fact) => /\b(?:presents?|here for|is a \d+[- ]year[- ]old)\b/i.test(fact.statement))) return [];
  const subject = subjectWord(sheet.gender);
  const stated = reason.facts.some((fact) => fact.kind === 'narrative');
  const what = reason.text.charAt(0).toLowerCase() + reason.text.slice(1);
  return [{ text: sentence(`${subject} presents ${stated ? 'for' : 'with'} ${what}`), facts: reason.facts }];
}

export function presentIllness(sheet: FactSheet, options: { negativesHere: boolean; reasonHere: boolean }): Written[] {
  const subject = subjectWord(sheet.gender);
  const narratives = ofKind(sheet.facts, 'narrative').filter((fact) => fact.topic === 'present_illness');
  const written: Written[] = [
    // Where the chief complaint leads this same section, "presents with …" would say it twice.
    ...(options.reasonHere ? [] : presentation(sheet, narratives)),
    ...narratives.map((fact) => ({ text: fact.statement, facts: [fact] })),
  ];
  const problems = ofKind(sheet.facts, 'problem').filter(patientsOwn);
  const untold = problems.filter((problem) => problem.polarity === 'present' && !told(problem, narratives));
  const plain = untold.filter((problem) => problemPhrase(problem, sheet.gender) === problem.text);
  if (plain.length > 0) {
    written.push({
      text: sentence(`${subject} reports ${listOf(plain.map((problem) => problem.text))}`),
      facts: plain,
    });
  }
  for (const problem of untold.filter((candidate) => !plain.includes(candidate))) {
    written.push({ text: sentence(`${subject} reports ${problemPhrase(problem, sheet.gender)}`), facts: [problem] });
  }
  const uncertain = problems.filter((problem) => problem.polarity === 'uncertain');
  if (uncertain.length > 0) {
    written.push({
      text: sentence(`${subject} is unsure about ${listOf(uncertain.map((problem) => problem.text))}`),
      facts: uncertain,
    });
  }
  if (options.negativesHere) {
    const denied = problems.filter((problem) => problem.polarity === 'absent');
    if (denied.length > 0) {
      written.push({
        text: sentence(
          `${subject} denies ${listOf(
            denied.map((problem) => problem.text),
            'or',
          )}`,
        ),
        facts: denied,
      });
    }
  }
  return written;
}

/** One line per system: "Constitutional: Endorses fatigue. Denies fever and chills." */
export function reviewOfSystems(sheet: FactSheet): Written[] {
  const bySystem = new Map<RosSystem, Problem[]>();
  for (const problem of ofKind(sheet.facts, 'problem').filter(patientsOwn)) {
    if (problem.polarity === 'uncertain' || isDiagnosis(problem)) continue;
    const system = systemOf(problem);
    bySystem.set(system, [...(bySystem.get(system) ?? []), problem]);
  }
  return [...bySystem].map(([system, problems]) => {
    const endorsed = problems.filter((problem) => problem.polarity === 'present').map((problem) => problem.text);
    const denied = problems.filter((problem) => problem.polarity === 'absent').map((problem) => problem.text);
    const parts = [
      endorsed.length === 0 ? '' : `Endorses ${listOf(endorsed)}.`,
      denied.length === 0 ? '' : `Denies ${listOf(denied, 'or')}.`,
    ].filter((part) => part !== '');
    return { text: `${system}: ${parts.join(' ')}`, facts: problems };
  });
}

const historyOf = (sheet: FactSheet, category: FactOf<'history'>['category']) =>
  ofKind(sheet.facts, 'history').filter((fact) => fact.category === category);

/** One line per item: "type 2 diabetes" beside "type 2 diabetes mellitus", or "diabetes" beside it, is the same item. */
function distinct(items: readonly FactOf<'history'>[]): FactOf<'history'>[] {
  const key = (fact: FactOf<'history'>) => fact.item.toLowerCase();
  return items.filter(
    (fact, index) =>
      !items.some((other, otherIndex) => {
        if (otherIndex === index) return false;
        const [mine, theirs] = [key(fact), key(other)];
        const within = theirs.startsWith(mine) || theirs.endsWith(` ${mine}`);
        return within && (theirs !== mine || otherIndex < index);
      }),
  );
}

/** Whether the story already says this item in its own words ("He had a prior lobectomy …"). */
const inStory = (sheet: FactSheet, fact: FactOf<'history'>) =>
  ofKind(sheet.facts, 'narrative').some((narrative) =>
    narrative.statement.toLowerCase().includes(fact.text.toLowerCase()),
  );

/** The past medical and surgical history; where the story shares the section, what it told is not repeated. */
export function pastHistory(sheet: FactSheet, options: { storyHere: boolean }): Written[] {
  const written: Written[] = [];
  const untold = (fact: FactOf<'history'>) =>
    fact.polarity === 'present' && !(options.storyHere && inStory(sheet, fact));
  const medical = distinct(historyOf(sheet, 'medical').filter(untold));
  if (medical.length > 0) {
    written.push({
      text: sentence(`History of ${listOf(medical.map((fact) => charted(fact, lowerFirst(fact.item))))}`),
      facts: medical,
    });
  }
  const surgical = distinct(historyOf(sheet, 'surgical').filter(untold));
  if (surgical.length > 0) {
    written.push({
      text: sentence(`Surgical history: ${listOf(surgical.map((fact) => charted(fact, fact.item)))}`),
      facts: surgical,
    });
  }
  // "Any surgeries?" "None." is charted as none, when nothing of the kind was named.
  for (const [category, none] of [
    ['medical', 'No significant past medical history'],
    ['surgical', 'No past surgical history'],
  ] as const) {
    const denied = historyOf(sheet, category).filter(
      (fact) => fact.polarity === 'absent' && fact.item === WHOLE_HISTORY_ITEMS[category],
    );
    if (denied.length > 0 && !historyOf(sheet, category).some(untold))
      written.push({ text: sentence(none), facts: denied });
  }
  return written;
}

export function familyHistory(sheet: FactSheet): Written[] {
  return historyOf(sheet, 'family').map((fact) => {
    const relation = fact.subject.type === 'relative' ? fact.subject.relation : 'family';
    if (fact.polarity === 'absent') return { text: sentence(`No family history of ${fact.item}`), facts: [fact] };
    const who = relation === 'family' ? 'Family history of' : `${capitalize(relation)} with`;
    return { text: sentence(`${who} ${fact.item}`), facts: [fact] };
  });
}

/** "tobacco use: former, 10 years ago" → "Former tobacco use, 10 years ago". */
function habitSentence(fact: FactOf<'history'>): string {
  const [habit = fact.item, detail] = fact.item.split(': ');
  if (fact.polarity === 'absent') return sentence(`Denies ${habit}`);
  if (fact.polarity === 'uncertain') return sentence(`Unclear ${habit}`);
  if (detail === undefined) return sentence(/\buse$/.test(habit) ? `Reports ${habit}` : habit);
  const [first, ...rest] = detail.split(', ');
  if (first === 'former') return sentence([`Former ${habit}`, ...rest].join(', '));
  return sentence(`${capitalize(habit)}: ${detail}`);
}

/** A companion's account stands beside the patient's, marked as theirs. */
const asReported = (fact: FactOf<'history'>, text: string) =>
  fact.speaker === 'other' ? text.replace(/\.$/, ', per companion.') : text;

export function socialHistory(sheet: FactSheet): Written[] {
  const social = historyOf(sheet, 'social');
  const told = [
    ...social.filter((fact) => fact.speaker !== 'other'),
    ...social.filter((fact) => fact.speaker === 'other'),
  ];
  return told.map((fact) => ({ text: asReported(fact, habitSentence(fact)), facts: [fact] }));
}
