/**
 * What a physician reviewing the note sees before any score: history written in the clinician's
 * third person or in the visit's first and second person, spoken language left in, a chief
 * complaint and an assessment and plan present, how the verifier classed the sentences, what the
 * note left out, and how long it is against the clinician's own note.
 */
import type { SupportClass } from '@chartwright/protocol';
import type { GeneratedNote } from '@chartwright/server/internal/notes/generator.js';

import { generatedGroupTexts, type SectionGroup } from './sections.js';

/** The first- and second-person words the audit counts (whole words, case-insensitive). */
const PERSON_WORDS =
  /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|we'll|us|our|ours|you|you're|you've|you'll|your|yours)\b/i;
const SPOKEN_MARKERS =
  /\b(?:okay|ok|um|uh|uh-huh|mm-hmm|yeah|yep|nope|gonna|wanna|kinda|sorta|alright|you know|i mean|hey)\b/i;
/** Quoted speech is the patient's words on purpose ("states 'I can't sleep'"), not a register slip. */
const QUOTED = /["“][^"”]*["”]/g;

const CHIEF_COMPLAINT = /\b(?:chief complaint|reason for (?:visit|referral)|presenting complaint)\b/i;

export interface NoteAudit {
  historySentences: number;
  personSentences: number;
  sentences: number;
  spokenSentences: number;
  chiefComplaint: boolean;
  assessmentAndPlan: boolean;
  support: Partial<Record<SupportClass, number>>;
  omissions: number;
  words: number;
}

export const countWords = (text: string): number => text.split(/\s+/).filter((word) => /[a-z0-9]/i.test(word)).length;

/** Outside the assessment and plan: what the visit's history, review, exam and results record. */
const HISTORY_GROUPS: readonly SectionGroup[] = ['history', 'ros', 'exam', 'results'];

export function auditNote(note: GeneratedNote): NoteAudit {
  const groups = generatedGroupTexts(note.sections);
  const historyKeys = new Set(
    note.sections
      .filter((section) => {
        const [group] = generatedGroupTexts([section]).keys();
        return group !== undefined && HISTORY_GROUPS.includes(group);
      })
      .map((section) => section.key),
  );
  const audit: NoteAudit = {
    historySentences: 0,
    personSentences: 0,
    sentences: 0,
    spokenSentences: 0,
    chiefComplaint: false,
    assessmentAndPlan: (groups.get('assessment_plan') ?? '').trim() !== '',
    support: {},
    omissions: note.omissions?.length ?? 0,
    words: 0,
  };
  for (const section of note.sections) {
    const isHistory = historyKeys.has(section.key);
    const namesComplaint = CHIEF_COMPLAINT.test(section.label);
    for (const sentence of section.sentences) {
      const unquoted = sentence.text.replace(QUOTED, ' ');
      audit.sentences++;
      audit.words += countWords(sentence.text);
      if (SPOKEN_MARKERS.test(unquoted)) audit.spokenSentences++;
      if (isHistory) {
        audit.historySentences++;
        if (PERSON_WORDS.test(unquoted)) audit.personSentences++;
      }
      if (namesComplaint || CHIEF_COMPLAINT.test(sentence.text)) audit.chiefComplaint = true;
      if (sentence.support !== undefined) audit.support[sentence.support] = (audit.support[sentence.support] ?? 0) + 1;
    }
  }
  return audit;
}

export interface AuditSummary {
  notes: number;
  /** Share of history sentences with a first- or second-person word. */
  personShare: number | null;
  /** Share of all sentences with a spoken-language marker. */
  spokenShare: number | null;
  chiefComplaintShare: number | null;
  assessmentAndPlanShare: number | null;
  support: Partial<Record<SupportClass, number>>;
  omissionsPerNote: number | null;
  medianWords: number;
  medianReferenceWords: number;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

export function summarizeAudits(audits: readonly NoteAudit[], referenceWords: readonly number[]): AuditSummary {
  const sum = (pick: (audit: NoteAudit) => number) => audits.reduce((total, audit) => total + pick(audit), 0);
  const support: Partial<Record<SupportClass, number>> = {};
  for (const audit of audits) {
    for (const [kind, count] of Object.entries(audit.support) as [SupportClass, number][]) {
      support[kind] = (support[kind] ?? 0) + count;
    }
  }
  return {
    notes: audits.length,
    personShare: ratio(
      sum((audit) => audit.personSentences),
      sum((audit) => audit.historySentences),
    ),
    spokenShare: ratio(
      sum((audit) => audit.spokenSentences),
      sum((audit) => audit.sentences),
    ),
    chiefComplaintShare: ratio(audits.filter((audit) => audit.chiefComplaint).length, audits.length),
    assessmentAndPlanShare: ratio(audits.filter((audit) => audit.assessmentAndPlan).length, audits.length),
    support,
    omissionsPerNote: ratio(
      sum((audit) => audit.omissions),
      audits.length,
    ),
    medianWords: median(audits.map((audit) => audit.words)),
    medianReferenceWords: median(referenceWords),
  };
}
