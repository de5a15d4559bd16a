import type {
  CreateWidgetDocumentParams,
  UpdateWidgetDocumentParams,
  WidgetDocument,
  WidgetDocumentEdit,
  WidgetDocumentKind,
  WidgetDocumentPdf,
} from '@chartwright/protocol';

import { generateId } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { signatureOf, type WidgetSession } from '../../partners/widget-sessions.js';
import type {
  EncounterDocumentRevisionRow,
  EncounterDocumentRow,
  RevisionOrigin,
} from '../../store/encounter-documents.js';
import type { EncounterRow } from '../../store/encounters.js';
import type { Repositories } from '../../store/repositories.js';
import { noteView } from '../encounter-notes.js';
import { applyKeyedEdits, checkRevision, revisionConflict } from '../keyed-edits.js';
import { patientContextOf, requireOwnedEncounter } from '../owned-encounter.js';
import type { Deletion } from '../../retention/deletion.js';
import { DRAFTS, formContent, type DocumentField } from './drafts.js';
import { documentMaterial, type NoteHeading } from './material.js';
import { renderDocumentPdf } from './pdf/layout.js';
import type { PdfLinks } from './pdf-links.js';

const FILE_NAMES: Readonly<Record<WidgetDocumentKind, string>> = {
  referral: 'referral-letter',
  letter: 'patient-letter',
  form: 'encounter-form',
};

const documentNotFound = (documentId: string) =>
  new AppError('document_not_found', `No document ${documentId} belongs to this encounter.`);
/** A download's name: what kind of document and which, never who it is about. */
const fileName = (document: Pick<EncounterDocumentRow, 'id' | 'document_type'>) =>
  `${FILE_NAMES[document.document_type]}-${document.id}.pdf`;

const parsedFields = (fields: string | null) => (fields === null ? null : (JSON.parse(fields) as DocumentField[]));

function editView(revision: EncounterDocumentRevisionRow): WidgetDocumentEdit {
  return {
    revision: revision.revision,
    title: revision.title,
    content: revision.content,
    fields: parsedFields(revision.fields),
    updatedAt: new Date(revision.created_at).toISOString(),
  };
}

/**
 * The document as the widget shows it. `history` says who wrote its current revision and the
 * clinician's last edit before it: kept as `previousEdit` when a regeneration replaced it.
 */
export function documentView(
  row: EncounterDocumentRow,
  history: { origin: RevisionOrigin; lastEdit: EncounterDocumentRevisionRow | undefined },
): WidgetDocument {
  return {
    id: row.id,
    sessionId: row.encounter_id,
    documentType: row.document_type,
    format: row.format,
    pushDocumentType: row.format === 'pdf' ? 'pdf' : row.document_type,
    title: row.title,
    content: row.content,
    fields: parsedFields(row.fields),
    noteId: row.note_id,
    recipient: row.recipient,
    revision: row.revision,
    origin: history.origin,
    previousEdit: history.origin === 'generated' && history.lastEdit !== undefined ? editView(history.lastEdit) : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/**
 * Documents of a widget encounter: written offline from the encounter's latest note (or the one
 * named), its patient context and the clinician, edited, and rendered to PDF behind signed links.
 * `pdf` as a documentType is a patient letter sent as a PDF.
 */
export class EncounterDocumentService {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      clock: Clock;
      links: PdfLinks;
      /** Documents are kept this long after they are created (NOTES_RETENTION_DAYS). */
      retentionMs: number;
      deletion: Deletion;
    },
  ) {}

  /**
   * Writes the encounter's document of the kind asked: its first revision, or — when the encounter
   * has one of that kind — a new revision of it (the clinician's edited revisions stay, and the
   * last of them is offered back as `previousEdit`). It is signed with the clinician's display name
   * (their e-mail until they set one) and addressed to the recipient typed, else the one it had.
   */
  async create(
    widgetSession: WidgetSession,
    encounterId: string,
    request: CreateWidgetDocumentParams,
  ): Promise<WidgetDocument> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    const now = this.deps.clock.now();
    const note = await this.sourceNote(encounter, request.noteId, now);
    const kind: WidgetDocumentKind = request.documentType === 'pdf' ? 'letter' : request.documentType;
    const documents = this.deps.repositories.encounterDocuments;
    for (let attempt = 0; ; attempt++) {
      const current = await documents.currentOfKind(encounter.id, kind, now);
      const recipient = request.recipient ?? current?.recipient ?? null;
      const draft = DRAFTS[kind](
        documentMaterial({
          now,
          context: patientContextOf(encounter),
          note: note?.headings ?? [],
          clinician: request.clinicianName ?? signatureOf(widgetSession.clinician),
          recipient,
        }),
      );
      const written = {
        title: draft.title,
        content: draft.content,
        fields: draft.fields === null ? null : JSON.stringify(draft.fields),
        note_id: note?.id ?? null,
        recipient,
        updated_at: now,
      };
      const format = request.format ?? (request.documentType === 'pdf' ? 'pdf' : (current?.format ?? 'text'));
      const saved =
        current === undefined
          ? await this.insertFirst({
              ...written,
              id: generateId('doc'),
              encounter_id: encounter.id,
              document_type: kind,
              format,
              revision: 1,
              superseded_by: null,
              created_at: now,
              expires_at: now + this.deps.retentionMs,
            })
          : await this.regenerated({ ...current, ...written, format, revision: current.revision + 1 });
      if (saved !== null) return this.view(saved);
      // Another tab wrote or edited this kind at the same moment: write over what it saved.
      if (attempt > 0) throw revisionConflict();
    }
  }

  /** The first document of its kind; null when another request made one first. */
  private async insertFirst(row: EncounterDocumentRow): Promise<EncounterDocumentRow | null> {
    const documents = this.deps.repositories.encounterDocuments;
    try {
      await documents.insert(row);
      return row;
    } catch (error) {
      if ((await documents.currentOfKind(row.encounter_id, row.document_type, row.created_at)) !== undefined) {
        return null;
      }
      throw error;
    }
  }

  private async regenerated(next: EncounterDocumentRow): Promise<EncounterDocumentRow | null> {
    return (await this.deps.repositories.encounterDocuments.saveRevision(next, 'generated')) ? next : null;
  }

  private async view(row: EncounterDocumentRow): Promise<WidgetDocument> {
    return documentView(row, await this.deps.repositories.encounterDocuments.history(row));
  }

  /** Saves an edit as the next revision; a form's content is rewritten from its fields. */
  async update(
    widgetSession: WidgetSession,
    encounterId: string,
    documentId: string,
    edit: UpdateWidgetDocumentParams,
  ): Promise<WidgetDocument> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    const now = this.deps.clock.now();
    const current = await this.find(encounter, documentId, now);
    checkRevision(edit.revision, current.revision);
    const { content, fields } = editedText(current, edit);
    const next: EncounterDocumentRow = {
      ...current,
      title: edit.title ?? current.title,
      content,
      fields,
      format: edit.format ?? current.format,
      revision: current.revision + 1,
      updated_at: now,
    };
    if (!(await this.deps.repositories.encounterDocuments.saveRevision(next, 'edited'))) throw revisionConflict();
    return this.view(next);
  }

  /**
   * Checks that `revision` is the document's current one, as the widget is about to send it to the
   * chart; the audit record of the call is what this is for.
   */
  async recordPush(
    widgetSession: WidgetSession,
    encounterId: string,
    documentId: string,
    revision: number,
  ): Promise<void> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    checkRevision(revision, (await this.find(encounter, documentId, this.deps.clock.now())).revision);
  }

  /** Deletes the document now with every revision; its PDF links stop working. */
  async delete(widgetSession: WidgetSession, encounterId: string, documentId: string): Promise<void> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    if (!(await this.deps.deletion.document(documentId, encounter.id))) throw documentNotFound(documentId);
  }

  async list(widgetSession: WidgetSession, encounterId: string): Promise<WidgetDocument[]> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    return this.listFor(encounter);
  }

  /** The encounter's documents, latest first (the caller checked it may see them). */
  async listFor(encounter: EncounterRow): Promise<WidgetDocument[]> {
    const rows = await this.deps.repositories.encounterDocuments.list(encounter.id, this.deps.clock.now());
    return Promise.all(rows.map((row) => this.view(row)));
  }

  /** A signed link to the PDF of the document's current revision; later edits do not change what it serves. */
  async pdfLink(widgetSession: WidgetSession, encounterId: string, documentId: string): Promise<WidgetDocumentPdf> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    const document = await this.find(encounter, documentId, this.deps.clock.now());
    const link = this.deps.links.sign(document.id, document.revision);
    return {
      documentId: document.id,
      revision: document.revision,
      pdfUrl: link.url,
      expiresAt: new Date(link.expiresAt).toISOString(),
      filename: fileName(document),
    };
  }

  /** The PDF a signed link grants, rendered from the revision it names. */
  async download(
    documentId: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<{ pdf: Buffer; filename: string }> {
    const { revision } = this.deps.links.verify(documentId, query);
    const found = await this.deps.repositories.encounterDocuments.getRevision(
      documentId,
      revision,
      this.deps.clock.now(),
    );
    if (found === undefined) {
      throw new AppError('document_not_found', 'The document of this link no longer exists (it passed its retention).');
    }
    if (found.partnerRevoked) throw new AppError('partner_revoked', 'The partner was revoked.');
    return {
      pdf: renderDocumentPdf({
        title: found.revision.title,
        content: found.revision.content,
        fields: found.document.document_type === 'form',
      }),
      filename: fileName(found.document),
    };
  }

  private async sourceNote(
    encounter: EncounterRow,
    noteId: string | undefined,
    now: number,
  ): Promise<{ id: string; headings: NoteHeading[] } | null> {
    const notes = this.deps.repositories.encounterNotes;
    const record =
      noteId === undefined ? (await notes.list(encounter.id, now))[0] : await notes.get(encounter.id, noteId, now);
    if (record === undefined) {
      if (noteId === undefined) return null;
      throw new AppError('note_not_found', `No note ${noteId} belongs to this encounter.`, {
        details: [{ path: 'noteId', message: 'is not a note of this encounter' }],
      });
    }
    const note = noteView(record);
    return {
      id: note.id,
      headings: note.headings.map(({ key, label }) => ({ label, text: note.sections[key] ?? '' })),
    };
  }

  private async find(encounter: EncounterRow, documentId: string, now: number): Promise<EncounterDocumentRow> {
    const document = await this.deps.repositories.encounterDocuments.get(encounter.id, documentId, now);
    if (document === undefined) throw documentNotFound(documentId);
    return document;
  }
}

/** The document's text after an edit: letters take content; forms take fields, their content follows. */
function editedText(
  current: EncounterDocumentRow,
  edit: UpdateWidgetDocumentParams,
): { content: string; fields: string | null } {
  if (current.fields === null) {
    if (edit.fields !== undefined) {
      throw AppError.invalidBody([
        { path: 'fields', message: `only a form has fields; edit this ${current.document_type}'s content` },
      ]);
    }
    return { content: edit.content ?? current.content, fields: null };
  }
  if (edit.content !== undefined) {
    throw AppError.invalidBody([
      { path: 'content', message: 'a form’s content is written from its fields; send fields' },
    ]);
  }
  if (edit.fields === undefined) return { content: current.content, fields: current.fields };
  const edited = applyKeyedEdits(
    JSON.parse(current.fields) as DocumentField[],
    edit.fields,
    { field: 'fields', part: 'field', whole: 'form' },
    (field, value) => ({ ...field, value }),
  );
  return { content: formContent(edited), fields: JSON.stringify(edited) };
}
