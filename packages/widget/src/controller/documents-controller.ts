import type { WidgetDocument, WidgetDocumentFormat, WidgetDocumentKind } from '@chartwright/protocol';

import type { ControllerContext } from './context.js';
import { whileBusy } from './notices.js';
import { pushDocumentOf } from './push-messages.js';
import { activeEncounterOf } from './widget-state.js';

/** What the clinician may change of a document before sending it. */
export interface DocumentChange {
  title?: string;
  content?: string;
  fields?: Record<string, string>;
  format?: WidgetDocumentFormat;
}

/** The encounter's letters and forms: written from the note, edited, sent to the chart (as PDFs or not). */
export class DocumentsController {
  constructor(private readonly context: ControllerContext) {}

  /** Writes the document of a kind, or a new revision of the encounter's one (the clinician's edits are kept). */
  async create(
    documentType: WidgetDocumentKind,
    options: { format?: WidgetDocumentFormat; recipient?: string } = {},
  ): Promise<void> {
    const { store, api } = this.context;
    const encounter = activeEncounterOf(store.state);
    if (encounter === null) return;
    await whileBusy(store, 'creating_document', async () => {
      const recipient = options.recipient?.trim() ?? '';
      const document = await api.createDocument(encounter.encounterId, {
        documentType,
        ...(options.format === undefined ? {} : { format: options.format }),
        ...(recipient === '' || documentType !== 'referral' ? {} : { recipient }),
      });
      store.dispatch({ type: 'document_created', document });
    });
  }

  /** Saves the clinician's display name: it signs their documents from now on, in every encounter. */
  async saveDisplayName(displayName: string): Promise<void> {
    const { store, api } = this.context;
    await whileBusy(store, 'saving_profile', async () => {
      const clinician = await api.updateProfile({ displayName });
      store.dispatch({ type: 'profile_saved', clinician });
    });
  }

  /** Puts the clinician's edited version a regeneration replaced back, as a new revision. */
  async restoreEdit(documentId: string): Promise<void> {
    const { store, api } = this.context;
    const encounter = activeEncounterOf(store.state);
    const document = encounter?.documents.find((candidate) => candidate.id === documentId);
    const edit = document?.previousEdit ?? null;
    if (encounter === null || document === undefined || edit === null) return;
    await whileBusy(store, `document:${documentId}`, async () => {
      const restored = await api.updateDocument(encounter.encounterId, documentId, {
        title: edit.title,
        ...(document.fields === null || edit.fields === null
          ? { content: edit.content }
          : { fields: Object.fromEntries(edit.fields.map((field) => [field.key, field.value])) }),
        revision: document.revision,
      });
      store.dispatch({ type: 'document_saved', document: restored });
    });
  }

  /**
   * Saves the document's edits when there are any (a new revision), then sends it to the chart:
   * PUSH_DOCUMENT, with a fresh link to its PDF when it goes as one.
   */
  async send(documentId: string, edit: DocumentChange): Promise<void> {
    const { store, api, post } = this.context;
    const encounter = activeEncounterOf(store.state);
    const document = encounter?.documents.find((candidate) => candidate.id === documentId);
    if (!encounter?.patient || document === undefined) return;
    const { encounterId, patient } = encounter;
    await whileBusy(store, `document:${documentId}`, async () => {
      const change = changedDocumentFields(document, edit);
      const saved =
        Object.keys(change).length === 0
          ? document
          : await api.updateDocument(encounterId, documentId, { ...change, revision: document.revision });
      const pdfUrl = saved.format === 'pdf' ? (await api.documentPdf(encounterId, saved.id)).pdfUrl : undefined;
      // On record before it leaves: the audit log holds every disclosure to the chart.
      await api.recordDocumentPush(encounterId, saved.id, { revision: saved.revision });
      store.dispatch({ type: 'document_sent', document: saved });
      post(pushDocumentOf(saved, { encounterId, patientId: patient.id }, pdfUrl));
    });
  }
}

/** The fields of a document edit that differ from the document as saved. */
function changedDocumentFields(document: WidgetDocument, edit: DocumentChange): DocumentChange {
  const fields =
    edit.fields === undefined || document.fields === null
      ? undefined
      : Object.fromEntries(
          Object.entries(edit.fields).filter(
            ([key, value]) => document.fields?.find((field) => field.key === key)?.value !== value,
          ),
        );
  return {
    ...(edit.title === undefined || edit.title.trim() === document.title ? {} : { title: edit.title }),
    ...(edit.content === undefined || document.fields !== null || edit.content === document.content
      ? {}
      : { content: edit.content }),
    ...(fields === undefined || Object.keys(fields).length === 0 ? {} : { fields }),
    ...(edit.format === undefined || edit.format === document.format ? {} : { format: edit.format }),
  };
}
