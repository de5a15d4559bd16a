/**
 * The note-quality evaluation behind `npm run eval:notes`: generates a note for each dialogue of a
 * JSONL data set, scores it against the clinician's note with ROUGE (ACI-Bench's definitions),
 * checks each output sentence against the dialogue (faithfulness), scores each canonical section
 * group against the reference note's own sections, and does the same ROUGE and faithfulness for
 * the copy-the-dialogue baseline in the same run.
 */
import type { NoteStyle, Template } from '@chartwright/protocol';
import type { EngineInfo, GeneratedSection, NoteGenerator } from '@chartwright/server/internal/notes/generator.js';
import { renderNote } from '@chartwright/server/internal/notes/render.js';
import { verifyGenerated } from '@chartwright/server/internal/notes/verifier/index.js';
import type { Conversation } from '@chartwright/server/internal/text/conversation.js';

import { auditNote, countWords, summarizeAudits, type AuditSummary, type NoteAudit } from './audit.js';
import { copyDialogue } from './baseline.js';
import { checkSentence, supportSource, type SupportSource } from './faithfulness.js';
import { ROUGE_TYPES, rougeLsum, rouge1, rougeScores, tokenize, type RougeScores, type RougeType } from './rouge.js';
import {
  SECTION_GROUPS,
  SECTION_GROUP_LABELS,
  generatedGroupTexts,
  referenceGroupTexts,
  splitNoteSections,
  type SectionGroup,
} from './sections.js';

/** Sentences of written prose: each line split after ., ! or ? followed by a space; bullets dropped. */
export function proseSentences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => line.replace(/^\s*(?:[•*-]|\d+\.)\s+/, '').split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => tokenize(sentence).length > 0);
}

/** One line of the data set: a visit dialogue and the note a clinician wrote for it. */
export interface EvalRecord {
  id: string;
  dialogue: string;
  note: string;
  /** Optional free-text context given to the engine (and counted as a source for faithfulness). */
  extraContext?: string;
}

export class DatasetError extends Error {}

/**
 * Reads JSON Lines of `{id, dialogue, note}` (other fields are ignored; an optional string
 * `extra_context` is passed to the engine). Blank lines are skipped; anything else that is not
 * such a record is an error naming the line.
 */
export function parseJsonl(text: string, origin = 'input'): EvalRecord[] {
  const records: EvalRecord[] = [];
  const ids = new Set<string>();
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const where = `${origin}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DatasetError(`${where}: not JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new DatasetError(`${where}: expected an object with id, dialogue and note`);
    }
    const record = value as Record<string, unknown>;
    const id = typeof record['id'] === 'number' ? String(record['id']) : record['id'];
    if (typeof id !== 'string' || id === '') throw new DatasetError(`${where}: "id" must be a non-empty string`);
    if (ids.has(id)) throw new DatasetError(`${where}: duplicate id "${id}"`);
    ids.add(id);
    for (const field of ['dialogue', 'note'] as const) {
      if (typeof record[field] !== 'string') throw new DatasetError(`${where}: "${field}" must be a string`);
    }
    const extra = record['extra_context'];
    if (extra !== undefined && typeof extra !== 'string') {
      throw new DatasetError(`${where}: "extra_context" must be a string when present`);
    }
    records.push({
      id,
      dialogue: record['dialogue'] as string,
      note: record['note'] as string,
      ...(extra === undefined ? {} : { extraContext: extra }),
    });
  }
  if (records.length === 0) throw new DatasetError(`${origin}: no records`);
  return records;
}

export interface EvaluationSetup {
  generator: NoteGenerator;
  parse: (text: string) => Conversation;
  template: Template;
  /** The note style asked for (the engine's default when absent). */
  style?: NoteStyle;
  /** Milliseconds, for the per-note timing; `performance.now` unless a test injects a clock. */
  now?: () => number;
}

export interface UnsupportedSentence {
  section: string;
  text: string;
  missingWords: string[];
  missingNumbers: number[];
}

export type GroupScores = Partial<Record<SectionGroup, { rouge1: number; rougeLsum: number }>>;

export interface NoteResult {
  id: string;
  engine: {
    rouge: RougeScores;
    sentences: number;
    supported: number;
    withEvidence: number;
    tokens: number;
    ms: number;
    error: string | null;
    unsupported: UnsupportedSentence[];
    /** Per group the reference has: the engine's scores there (0 when it wrote nothing there). */
    sections: GroupScores;
    /** The groups the engine wrote something in. */
    writtenGroups: SectionGroup[];
    /** What a reviewing physician sees: register, spoken language, the parts present, length. */
    audit: NoteAudit | null;
  };
  baseline: { rouge: RougeScores; sentences: number; supported: number; tokens: number };
  referenceTokens: number;
  /** The clinician's note through the same faithfulness check: its sentences, and how many pass. */
  reference: { sentences: number; supported: number };
}

export interface MeanScore {
  precision: number;
  recall: number;
  f1: number;
}

export interface SystemSummary {
  name: string;
  /** Mean over notes of each score's precision, recall and F1 (F1 is the figure ACI-Bench reports). */
  rouge: Record<RougeType, MeanScore>;
  /** Output sentences whose content words and numbers all appear in the source. */
  faithfulness: { sentences: number; supported: number; share: number | null };
  /** Output sentences that cite at least one turn or context field (null for the baseline). */
  evidence: { sentences: number; withEvidence: number; share: number | null } | null;
  meanTokens: number;
  /** Per-note time to parse, generate and render (null for the baseline, which is a string copy). */
  timing: { p50Ms: number; p95Ms: number; meanMs: number; maxMs: number } | null;
  failures: number;
}

export interface SectionSummary {
  group: SectionGroup;
  label: string;
  /** Notes whose reference has this group: the ones the means are over. */
  references: number;
  /** Of those, notes where the engine wrote something in this group. */
  filled: number;
  /** Notes where the engine wrote this group but the reference has none. */
  extra: number;
  rouge1: number | null;
  rougeLsum: number | null;
}

export interface EvaluationReport {
  template: { id: string; version: number };
  engine: EngineInfo;
  notes: number;
  meanReferenceTokens: number;
  /**
   * The reference notes' own sentences through the faithfulness check, for calibration: clinicians
   * write what they examined and decided beyond what was said aloud, so this is well below 1.
   */
  referenceFaithfulness: { sentences: number; supported: number; share: number | null };
  systems: { engine: SystemSummary; baseline: SystemSummary };
  sections: SectionSummary[];
  /** Over the notes the engine wrote (failed ones left out). */
  audit: AuditSummary;
  perNote: NoteResult[];
}

function emptyScores(): RougeScores {
  const zero = { precision: 0, recall: 0, f1: 0 };
  return { rouge1: zero, rouge2: zero, rougeL: zero, rougeLsum: zero };
}

function sourceOf(record: EvalRecord): SupportSource {
  return supportSource(record.extraContext === undefined ? [record.dialogue] : [record.dialogue, record.extraContext]);
}

async function evaluateNote(record: EvalRecord, setup: EvaluationSetup): Promise<NoteResult> {
  const now = setup.now ?? (() => performance.now());
  const source = sourceOf(record);
  const referenceGroups = referenceGroupTexts(record.note);

  let sections: GeneratedSection[] = [];
  let text = '';
  let error: string | null = null;
  let audit: NoteAudit | null = null;
  const started = now();
  try {
    const conversation = setup.parse(record.dialogue);
    const input = {
      template: setup.template,
      conversation,
      context: record.extraContext === undefined ? {} : { extra: record.extraContext },
      ...(setup.style === undefined ? {} : { style: setup.style }),
    };
    // As the service does: every note through the verifier (support classes, omissions).
    const note = verifyGenerated(await setup.generator.generate(input), input, { dropContradictions: false });
    sections = note.sections;
    audit = auditNote(note);
    text = renderNote(sections);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  const ms = now() - started;

  const unsupported: UnsupportedSentence[] = [];
  let sentences = 0;
  let withEvidence = 0;
  for (const section of sections) {
    for (const sentence of section.sentences) {
      sentences++;
      if (sentence.evidence.turns.length > 0 || sentence.evidence.context.length > 0) withEvidence++;
      const check = checkSentence(sentence.text, source);
      if (!check.supported) {
        unsupported.push({
          section: section.key,
          text: sentence.text,
          missingWords: check.missingWords,
          missingNumbers: check.missingNumbers,
        });
      }
    }
  }

  const generatedGroups = generatedGroupTexts(sections);
  const groupScores: GroupScores = {};
  for (const [group, reference] of referenceGroups) {
    if (tokenize(reference).length === 0) continue;
    const prediction = generatedGroups.get(group) ?? '';
    groupScores[group] = { rouge1: rouge1(reference, prediction).f1, rougeLsum: rougeLsum(reference, prediction).f1 };
  }

  const referenceSentences = splitNoteSections(record.note).flatMap((section) => proseSentences(section.text));
  const baselineText = copyDialogue(record.dialogue);
  const baselineLines = baselineText.split('\n').filter((line) => line.length > 0);
  const baselineSupported = baselineLines.filter((line) => checkSentence(line, source).supported).length;

  return {
    id: record.id,
    engine: {
      rouge: error === null ? rougeScores(record.note, text) : emptyScores(),
      sentences,
      supported: sentences - unsupported.length,
      withEvidence,
      tokens: tokenize(text).length,
      ms,
      error,
      unsupported,
      sections: groupScores,
      writtenGroups: [...generatedGroups.keys()],
      audit,
    },
    baseline: {
      rouge: rougeScores(record.note, baselineText),
      sentences: baselineLines.length,
      supported: baselineSupported,
      tokens: tokenize(baselineText).length,
    },
    referenceTokens: tokenize(record.note).length,
    reference: {
      sentences: referenceSentences.length,
      supported: referenceSentences.filter((sentence) => checkSentence(sentence, source).supported).length,
    },
  };
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The nearest-rank percentile (p in 0–1) of the values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

function meanRouge(results: readonly RougeScores[]): Record<RougeType, MeanScore> {
  const entries = ROUGE_TYPES.map((type) => {
    const scores = results.map((result) => result[type]);
    return [
      type,
      {
        precision: mean(scores.map((score) => score.precision)),
        recall: mean(scores.map((score) => score.recall)),
        f1: mean(scores.map((score) => score.f1)),
      },
    ] as const;
  });
  return Object.fromEntries(entries) as Record<RougeType, MeanScore>;
}

const share = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** Runs the whole evaluation, one note after another (so the timings are per note, not contended). */
export async function evaluate(records: readonly EvalRecord[], setup: EvaluationSetup): Promise<EvaluationReport> {
  const perNote: NoteResult[] = [];
  for (const record of records) perNote.push(await evaluateNote(record, setup));

  const engineSentences = perNote.reduce((sum, note) => sum + note.engine.sentences, 0);
  const engineSupported = perNote.reduce((sum, note) => sum + note.engine.supported, 0);
  const engineWithEvidence = perNote.reduce((sum, note) => sum + note.engine.withEvidence, 0);
  const times = perNote.map((note) => note.engine.ms);
  const baselineSentences = perNote.reduce((sum, note) => sum + note.baseline.sentences, 0);
  const baselineSupported = perNote.reduce((sum, note) => sum + note.baseline.supported, 0);
  const referenceSentences = perNote.reduce((sum, note) => sum + note.reference.sentences, 0);
  const referenceSupported = perNote.reduce((sum, note) => sum + note.reference.supported, 0);
  const { engine } = setup.generator;

  const sections = SECTION_GROUPS.map((group): SectionSummary => {
    const scored = perNote.flatMap((note) => note.engine.sections[group] ?? []);
    const referenced = perNote.filter((note) => note.engine.sections[group] !== undefined);
    return {
      group,
      label: SECTION_GROUP_LABELS[group],
      references: scored.length,
      filled: referenced.filter((note) => note.engine.writtenGroups.includes(group)).length,
      extra: perNote.filter(
        (note) => note.engine.sections[group] === undefined && note.engine.writtenGroups.includes(group),
      ).length,
      rouge1: scored.length === 0 ? null : mean(scored.map((scores) => scores.rouge1)),
      rougeLsum: scored.length === 0 ? null : mean(scored.map((scores) => scores.rougeLsum)),
    };
  });

  return {
    template: { id: setup.template.id, version: setup.template.version },
    engine,
    notes: perNote.length,
    meanReferenceTokens: mean(perNote.map((note) => note.referenceTokens)),
    referenceFaithfulness: {
      sentences: referenceSentences,
      supported: referenceSupported,
      share: share(referenceSupported, referenceSentences),
    },
    systems: {
      engine: {
        name: `${engine.name} ${engine.version}`,
        rouge: meanRouge(perNote.map((note) => note.engine.rouge)),
        faithfulness: {
          sentences: engineSentences,
          supported: engineSupported,
          share: share(engineSupported, engineSentences),
        },
        evidence: {
          sentences: engineSentences,
          withEvidence: engineWithEvidence,
          share: share(engineWithEvidence, engineSentences),
        },
        meanTokens: mean(perNote.map((note) => note.engine.tokens)),
        timing: {
          p50Ms: percentile(times, 0.5),
          p95Ms: percentile(times, 0.95),
          meanMs: mean(times),
          maxMs: Math.max(...times),
        },
        failures: perNote.filter((note) => note.engine.error !== null).length,
      },
      baseline: {
        name: 'copy-dialogue baseline',
        rouge: meanRouge(perNote.map((note) => note.baseline.rouge)),
        faithfulness: {
          sentences: baselineSentences,
          supported: baselineSupported,
          share: share(baselineSupported, baselineSentences),
        },
        evidence: null,
        meanTokens: mean(perNote.map((note) => note.baseline.tokens)),
        timing: null,
        failures: 0,
      },
    },
    sections,
    audit: summarizeAudits(
      perNote.flatMap((note) => note.engine.audit ?? []),
      records.map((record) => countWords(record.note)),
    ),
    perNote,
  };
}
