import type {
  CreateNoteParams,
  GenerateWidgetNoteParams,
  Note,
  ReviewFlag,
  StoredPatientContext,
  UpdateWidgetNoteParams,
  WidgetNote,
} from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ResolvedTemplate } from '../notes/template-resolution.js';
import { noteReviewOf } from '../notes/note-records.js';
import {
  checkConversationLength,
  checkSegmentsLength,
  type NoteInput,
  type NoteService,
} from '../notes/note-service.js';
import { renderSectionTexts } from '../notes/render.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { EncounterNoteRecord, EncounterNoteRow } from '../store/encounter-notes.js';
import type { EncounterRow } from '../store/encounters.js';
import type { Repositories } from '../store/repositories.js';
import { segmentsText } from '../text/segment-conversation.js';
import { encounterTemplateOf } from './encounter-template.js';
import { applyKeyedEdits, checkRevision, revisionConflict } from './keyed-edits.js';
import { patientContextOf, requireOwnedEncounter } from './owned-encounter.js';
import type { EncounterTranscripts } from './transcripts.js';
import type { Deletion } from '../retention/deletion.js';

const noteNotFound = (noteId: string) => new AppError('note_not_found', `No note ${noteId} belongs to this encounter.`);

/** A note section as stored: under the host's key, with the template's key and heading. */
export interface StoredNoteSection {
  key: string;
  templateKey: string;
  label: string;
  text: string;
}

/** Flags name their section by the template's key; the widget knows it by the host's. */
function hostFlags(flags: readonly ReviewFlag[], sections: readonly StoredNoteSection[]): ReviewFlag[] {
  const hostKeys = new Map(sections.map((section) => [section.templateKey, section.key]));
  return flags.map((flag) =>
    flag.section === null ? flag : { ...flag, section: hostKeys.get(flag.section) ?? flag.section },
  );
}

export function noteView(record: EncounterNoteRecord): WidgetNote {
  const sections = JSON.parse(record.sections) as StoredNoteSection[];
  const review = noteReviewOf(record);
  return {
    id: record.id,
    sessionId: record.encounter_id,
    revision: record.revision,
    templateId: record.template_id,
    templateVersion: record.template_version,
    headings: sections.map(({ key, label }) => ({ key, label })),
    sections: Object.fromEntries(sections.map((section) => [section.key, section.text])),
    note: record.note_text,
    transcript: record.transcript,
    source: record.source,
    engine: { name: record.engine_name, version: record.engine_version },
    fallback: record.fallback === null ? null : (JSON.parse(record.fallback) as WidgetNote['fallback']),
    createdAt: new Date(record.created_at).toISOString(),
    updatedAt: new Date(record.updated_at).toISOString(),
    expiresAt: new Date(record.expires_at).toISOString(),
    ...review,
    flags: hostFlags(review.flags, sections),
  };
}

/** Who the note is about, as far as wording it goes: never ids, contact details or card numbers. */
function notePatientOf(context: StoredPatientContext): NonNullable<CreateNoteParams['patient']> {
  const { name, firstName, lastName, dob, gender } = context.patient;
  return {
    name,
    firstName,
    lastName,
    ...(dob === undefined ? {} : { dob }),
    ...(gender === undefined ? {} : { gender }),
  };
}

/** The visit a note is written from: what the request sent (text or segments), else the recording. */
interface Visit {
  input: Pick<NoteInput, 'conversation_text' | 'segments' | 'conversation'>;
  /** The conversation as text: PUSH_NOTE.transcript. */
  transcript: string;
  source: EncounterNoteRow['source'];
}

/** The note's input: the encounter's stored template, its patient and context, and the visit. */
function noteInput(
  encounter: EncounterRow,
  template: ResolvedTemplate,
  visit: Visit,
  request: GenerateWidgetNoteParams,
): NoteInput {
  const context = patientContextOf(encounter);
  const { extraContext, style } = request;
  return {
    template: template.template,
    ...visit.input,
    ...(context === null ? {} : { patient: notePatientOf(context) }),
    ...(context?.context === undefined ? {} : { context: context.context }),
    ...(extraContext === undefined || extraContext.trim() === '' ? {} : { extra_context: extraContext }),
    ...(style === undefined ? {} : { style }),
  };
}

/** The generated note's sections under the encounter's host keys, every one present ("" when empty). */
function hostSections(sectionKeys: ResolvedTemplate['sectionKeys'], note: Note): StoredNoteSection[] {
  const texts = new Map(note.sections.map((section) => [section.key, section.text]));
  return sectionKeys.map((section) => ({
    key: section.hostKey,
    templateKey: section.templateKey,
    label: section.label,
    text: texts.get(section.templateKey) ?? '',
  }));
}

/** Notes of a widget encounter: written by the NoteService from the encounter's transcript, then edited. */
export class EncounterNoteService {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      clock: Clock;
      notes: NoteService;
      transcripts: EncounterTranscripts;
      deletion: Deletion;
    },
  ) {}

  async generate(
    widgetSession: WidgetSession,
    encounterId: string,
    request: GenerateWidgetNoteParams,
    signal?: AbortSignal,
  ): Promise<WidgetNote> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    const visit = await this.visitOf(encounter, request);
    const template = encounterTemplateOf(encounter);
    const note = await this.deps.notes.generate(
      { projectId: encounter.project_id, environment: encounter.environment },
      noteInput(encounter, template, visit, request),
      signal === undefined ? {} : { signal },
    );
    const sections = hostSections(template.sectionKeys, note);
    const createdAt = Date.parse(note.created_at);
    const row: EncounterNoteRow = {
      id: note.id,
      encounter_id: encounter.id,
      revision: 1,
      sections: JSON.stringify(sections),
      note_text: renderSectionTexts(sections),
      transcript: visit.transcript,
      source: visit.source,
      created_at: createdAt,
      updated_at: createdAt,
      expires_at: Date.parse(note.expires_at),
    };
    await this.deps.repositories.encounterNotes.insert(row);
    return noteView({
      ...row,
      template_id: note.template_id,
      template_version: note.template_version,
      engine_name: note.engine.name,
      engine_version: note.engine.version,
      fallback: note.fallback === null ? null : JSON.stringify(note.fallback),
      style: note.style,
      flags: JSON.stringify(note.flags),
      omissions: JSON.stringify(note.omissions),
      warnings: JSON.stringify(note.warnings),
      verification: note.verification === null ? null : JSON.stringify(note.verification),
    });
  }

  /**
   * The visit as the request sent it (`segments` or `conversationText`, both recorded as source
   * `conversation_text`: sent by the widget), else the encounter's recorded transcript.
   */
  private async visitOf(encounter: EncounterRow, request: GenerateWidgetNoteParams): Promise<Visit> {
    if (request.segments !== undefined) {
      checkSegmentsLength(request.segments, 'segments');
      const { segments } = request;
      return { input: { segments }, transcript: segmentsText(segments), source: 'conversation_text' };
    }
    const typed = request.conversationText;
    const recording = typed === undefined ? await this.deps.transcripts.recording(encounter.id) : undefined;
    const conversation = typed ?? recording?.text ?? '';
    if (conversation.trim() === '') {
      throw new AppError(
        'transcript_empty',
        'The encounter has no transcript yet: record the visit, or send the visit as conversationText or segments.',
      );
    }
    checkConversationLength(
      conversation,
      typed === undefined ? { name: 'the transcript' } : { name: 'conversationText', path: 'conversationText' },
    );
    return {
      input: {
        conversation_text: conversation,
        // The recording's turns keep the recognizer's words, so uncertain ones can be flagged.
        ...(recording === undefined ? {} : { conversation: recording.conversation }),
      },
      transcript: conversation,
      source: typed === undefined ? 'transcript' : 'conversation_text',
    };
  }

  /** Saves edited section texts as the next revision; sections left out keep their text. */
  async update(
    widgetSession: WidgetSession,
    encounterId: string,
    noteId: string,
    edit: UpdateWidgetNoteParams,
  ): Promise<WidgetNote> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    const now = this.deps.clock.now();
    const record = await this.find(encounter, noteId, now);
    checkRevision(edit.revision, record.revision);
    const sections = applyKeyedEdits(
      JSON.parse(record.sections) as StoredNoteSection[],
      edit.sections,
      { field: 'sections', part: 'section', whole: 'note' },
      (section, text) => ({ ...section, text }),
    );
    const noteText = renderSectionTexts(sections);
    const saved = await this.deps.repositories.encounterNotes.saveRevision(record.id, record.revision, {
      sections: JSON.stringify(sections),
      noteText,
      at: now,
    });
    if (!saved) throw revisionConflict();
    return noteView({
      ...record,
      sections: JSON.stringify(sections),
      note_text: noteText,
      revision: record.revision + 1,
      updated_at: now,
    });
  }

  /**
   * Checks that `revision` is the note's current one, as the widget is about to send it to the chart;
   * the audit record of the call is what this is for.
   */
  async recordPush(widgetSession: WidgetSession, encounterId: string, noteId: string, revision: number): Promise<void> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    checkRevision(revision, (await this.find(encounter, noteId, this.deps.clock.now())).revision);
  }

  /** Deletes the note now; a document written from it keeps its own text. */
  async delete(widgetSession: WidgetSession, encounterId: string, noteId: string): Promise<void> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    if (!(await this.deps.deletion.encounterNote(encounter.id, noteId))) throw noteNotFound(noteId);
  }

  async list(widgetSession: WidgetSession, encounterId: string): Promise<WidgetNote[]> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    return this.listFor(encounter);
  }

  /** The encounter's notes, latest first (the caller checked it may see them). */
  async listFor(encounter: EncounterRow): Promise<WidgetNote[]> {
    const records = await this.deps.repositories.encounterNotes.list(encounter.id, this.deps.clock.now());
    return records.map(noteView);
  }

  private async find(encounter: EncounterRow, noteId: string, now: number): Promise<EncounterNoteRecord> {
    const record = await this.deps.repositories.encounterNotes.get(encounter.id, noteId, now);
    if (record === undefined) throw noteNotFound(noteId);
    return record;
  }
}
