/**
 * Writes the note from the fact sheet: each part of a clinical note (chief complaint, present
 * illness, review of systems, histories, medications, allergies, vitals, exam, results,
 * assessment, plan) written from its facts, and filed under the template section that takes that
 * part — the template's own section when it has one, else the nearest it has. Every sentence cites
 * the facts it states. Never adds a section key the template does not define.
 */
import type { NoteStyle, Template } from '@chartwright/protocol';

import type { Kind } from '../engines/extractive/lexicons.js';
import { routeSections } from '../engines/extractive/sections.js';
import type { FactSheet } from '../facts/sheet.js';
import type { GeneratedSection } from '../generator.js';
import { chartLists } from './chart-lists.js';
import { conciseParts } from './concise.js';
import { findingSentences } from './findings.js';
import { familyHistory, pastHistory, presentIllness, reviewOfSystems, socialHistory } from './history.js';
import { assessmentSentences, planSentences } from './assessment-plan.js';
import { chiefComplaint, labelled, toNoteSentence, type NoteParts, type Written } from './phrasing.js';

function detailedParts(sheet: FactSheet, own: (kind: Kind) => boolean): NoteParts {
  const lists = chartLists(sheet);
  return {
    chief_complaint: chiefComplaint(sheet, own('chief_complaint')),
    hpi: presentIllness(sheet, { negativesHere: !own('ros'), reasonHere: !own('chief_complaint') }),
    ros: own('ros') ? reviewOfSystems(sheet) : [],
    past_history: pastHistory(sheet, { storyHere: !own('past_history') }),
    family_history: familyHistory(sheet),
    social_history: socialHistory(sheet),
    medications: own('medications') ? lists.medications : labelled('Medications', lists.medications),
    allergies: own('allergies') ? lists.allergies : labelled('Allergies', lists.allergies),
    ...findingSentences(sheet),
    assessment: assessmentSentences(sheet),
    plan: planSentences(sheet),
  };
}

/** The order parts are written in within one section (several parts may share it, as in SOAP). */
const PART_ORDER: readonly Kind[] = [
  'chief_complaint',
  'hpi',
  'ros',
  'past_history',
  'medications',
  'allergies',
  'family_history',
  'social_history',
  'vitals',
  'exam',
  'results',
  'assessment',
  'plan',
  'follow_up',
];

export function writeNote(sheet: FactSheet, template: Template, style: NoteStyle): GeneratedSection[] {
  const { sectionOf } = routeSections(template);
  // A part has its own section when the template gives it one apart from the present illness.
  const own = (kind: Kind) => sectionOf.get(kind) !== undefined && sectionOf.get(kind) !== sectionOf.get('hpi');
  const written = style === 'concise' ? conciseParts(sheet, own) : detailedParts(sheet, own);
  const bySection = new Map<string, Written[]>(template.sections.map((section) => [section.key, []]));
  for (const kind of PART_ORDER) {
    const key = sectionOf.get(kind);
    if (key === undefined) continue;
    bySection.get(key)?.push(...(written[kind] ?? []));
  }
  return template.sections.map((section) => ({
    key: section.key,
    label: section.label,
    sentences: once(bySection.get(section.key) ?? []).map(toNoteSentence),
  }));
}

/** A sentence said twice in the visit is written once in a section, citing what both stated. */
function once(written: readonly Written[]): Written[] {
  const byText = new Map<string, Written>();
  for (const item of written) {
    const key = item.text.toLowerCase();
    const kept = byText.get(key);
    byText.set(key, kept === undefined ? item : { text: kept.text, facts: [...kept.facts, ...item.facts] });
  }
  return [...byText.values()];
}
