import type { PushDocumentMessage, PushNoteMessage, WidgetDocument, WidgetNote } from '@chartwright/protocol';

/** Who a pushed note or document is for: the encounter (the wire's `sessionId`) and the EMR's own patient id. */
export interface ChartTarget {
  encounterId: string;
  patientId: string;
}

/** PUSH_NOTE for a note as saved: the service already shapes `note`, `sections` and `transcript` for it. */
export function pushNoteOf(note: WidgetNote, target: ChartTarget): PushNoteMessage {
  return {
    type: 'PUSH_NOTE',
    note: note.note,
    sections: { ...note.sections },
    transcript: note.transcript,
    sessionId: target.encounterId,
    patientId: target.patientId,
  };
}

/** PUSH_DOCUMENT for a document as saved; a PDF one carries the link to its current revision. */
export function pushDocumentOf(document: WidgetDocument, target: ChartTarget, pdfUrl?: string): PushDocumentMessage {
  return {
    type: 'PUSH_DOCUMENT',
    title: document.title,
    content: document.content,
    documentType: document.pushDocumentType,
    ...(pdfUrl === undefined ? {} : { pdfUrl }),
    sessionId: target.encounterId,
    patientId: target.patientId,
  };
}

/** The sections whose text the clinician changed, as the note update takes them. */
export function editedSections(note: WidgetNote, draft: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(draft).filter(([key, text]) => key in note.sections && note.sections[key] !== text),
  );
}
