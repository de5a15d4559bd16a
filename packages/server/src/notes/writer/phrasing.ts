/**
 * The small pieces every written sentence is made of: how the note names the patient, lists in
 * chart form, capitals, and the sentence object that carries the facts it states.
 */
import type { Fact, FactOf } from '@chartwright/protocol';

import type { Kind } from '../engines/extractive/lexicons.js';
import type { Gender } from '../engines/extractive/rewrite.js';
import type { FactSheet } from '../facts/sheet.js';
import type { NoteSentence } from '../generator.js';
import { chartCasing } from '../../text/display-text.js';

/** What each part of a note says, before the parts are filed under the template's sections. */
export type NoteParts = Partial<Record<Kind, Written[]>>;

/** A written sentence with the facts it states; its evidence is theirs. */
export interface Written {
  text: string;
  facts: readonly Fact[];
}

export function toNoteSentence({ text, facts }: Written): NoteSentence {
  const turns = new Set<number>();
  const context = new Set<string>();
  for (const fact of facts) {
    for (const turn of fact.source.turns) turns.add(turn);
    for (const path of fact.source.context) context.add(path);
  }
  return {
    text: chartCasing(text),
    evidence: { turns: [...turns].sort((a, b) => a - b), context: [...context] },
    facts: facts.map((fact) => fact.id),
  };
}

export const ofKind = <K extends Fact['kind']>(facts: readonly Fact[], kind: K): FactOf<K>[] =>
  facts.filter((fact): fact is FactOf<K> => fact.kind === kind);

/** What the EMR sent rather than the visit said (the free text `extra` is the caller's own words). */
export const fromChart = (fact: Fact) =>
  fact.source.turns.length === 0 && fact.source.context.some((path) => path.startsWith('medical.'));
export const CHART_MARK = ' (from chart)';

/** A fact's words, marked when they come from the chart. */
export const charted = (fact: Fact, words: string) => `${words}${fromChart(fact) ? CHART_MARK : ''}`;

/** How a sentence opens when it speaks of the patient. */
export function subjectWord(gender: Gender): string {
  if (gender === 'female') return 'She';
  if (gender === 'male') return 'He';
  return 'The patient';
}

export function possessive(gender: Gender): string {
  if (gender === 'female') return 'her';
  if (gender === 'male') return 'his';
  return 'their';
}

export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "a", "a and b", "a, b, and c". */
export function listOf(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0] ?? ''} ${conjunction} ${items[1] ?? ''}`;
  return `${items.slice(0, -1).join(', ')}, ${conjunction} ${items.at(-1) ?? ''}`;
}

/** Ends a sentence with one full stop. */
export const sentence = (text: string): string => `${capitalize(text.trim().replace(/[\s.,;:]+$/, ''))}.`;

/** The reason for the visit: alone in its own section, labelled where it leads another. */
export function chiefComplaint(sheet: FactSheet, ownSection: boolean): Written[] {
  const reason = sheet.chiefComplaint;
  if (reason === null) return [];
  return [{ text: sentence(ownSection ? reason.text : `Chief complaint: ${reason.text}`), facts: reason.facts }];
}

/** A list in a section shared with other parts is one labelled line: "Medications: a; b." */
export function labelled(label: string, items: readonly Written[]): Written[] {
  if (items.length === 0) return [];
  const line = items.map((item) => item.text.replace(/\.$/, '')).join('; ');
  return [{ text: `${label}: ${line}.`, facts: items.flatMap((item) => item.facts) }];
}
