import { randomUUID } from 'node:crypto';

import type { PushDocumentMessage, PushNoteMessage } from '@chartwright/protocol';

/** A visit of one patient: its id is the emrSessionId the widget token carries, so a relaunch reopens its scribe. */
export interface Visit {
  emrSessionId: string;
  number: number;
  startedAt: string;
  /** Every SESSION_STARTED sessionId heard for this visit, in order (a relaunch repeats the same one). */
  sessionIds: string[];
}

export interface FiledNote {
  id: string;
  receivedAt: string;
  emrSessionId: string;
  sessionId: string;
  note: string;
  sections: Record<string, string> | null;
  transcript: string | null;
}

export interface FiledDocument {
  id: string;
  receivedAt: string;
  emrSessionId: string;
  sessionId: string;
  title: string;
  content: string;
  documentType: PushDocumentMessage['documentType'];
  /** The expiring link the widget sent. */
  pdfUrl: string | null;
  /** The chart's own copy of the PDF, downloaded from pdfUrl when the document arrived. */
  pdfPath: string | null;
  /** Why the copy could not be made. */
  pdfProblem: string | null;
}

export interface PatientChart {
  visit: Visit;
  notes: FiledNote[];
  documents: FiledDocument[];
}

interface PatientRecord {
  visits: Visit[];
  notes: FiledNote[];
  documents: FiledDocument[];
}

/**
 * What the demo EMR files, in memory: visits, and the notes and documents the widget pushed,
 * newest first. A restart forgets them, and starts new visits (the visit ids carry this run's
 * stamp), so a restarted demo never reopens an encounter whose notes it no longer shows.
 */
export class ChartStore {
  readonly #records = new Map<string, PatientRecord>();
  readonly #pdfs = new Map<string, Uint8Array>();
  readonly #run = Date.now().toString(36);

  #record(patientId: string): PatientRecord {
    let record = this.#records.get(patientId);
    if (record === undefined) {
      record = { visits: [], notes: [], documents: [] };
      this.#records.set(patientId, record);
    }
    return record;
  }

  currentVisit(patientId: string): Visit {
    return this.#record(patientId).visits.at(-1) ?? this.startVisit(patientId);
  }

  startVisit(patientId: string): Visit {
    const record = this.#record(patientId);
    const number = record.visits.length + 1;
    const visit: Visit = {
      emrSessionId: `${patientId}-visit-${number}-${this.#run}`,
      number,
      startedAt: new Date().toISOString(),
      sessionIds: [],
    };
    record.visits.push(visit);
    return visit;
  }

  recordSession(patientId: string, sessionId: string): Visit {
    const visit = this.currentVisit(patientId);
    visit.sessionIds.push(sessionId);
    return visit;
  }

  fileNote(patientId: string, message: PushNoteMessage): FiledNote {
    const filed: FiledNote = {
      id: `note-${randomUUID()}`,
      receivedAt: new Date().toISOString(),
      emrSessionId: this.currentVisit(patientId).emrSessionId,
      sessionId: message.sessionId,
      note: message.note,
      sections: message.sections ?? null,
      transcript: message.transcript ?? null,
    };
    this.#record(patientId).notes.unshift(filed);
    return filed;
  }

  fileDocument(
    patientId: string,
    message: PushDocumentMessage,
    pdf: { bytes: Uint8Array } | { problem: string } | null,
  ): FiledDocument {
    const id = `doc-${randomUUID()}`;
    const saved = pdf !== null && 'bytes' in pdf;
    if (saved) this.#pdfs.set(id, pdf.bytes);
    const filed: FiledDocument = {
      id,
      receivedAt: new Date().toISOString(),
      emrSessionId: this.currentVisit(patientId).emrSessionId,
      sessionId: message.sessionId,
      title: message.title,
      content: message.content,
      documentType: message.documentType,
      pdfUrl: message.pdfUrl ?? null,
      pdfPath: saved ? `/api/documents/${id}.pdf` : null,
      pdfProblem: pdf !== null && 'problem' in pdf ? pdf.problem : null,
    };
    this.#record(patientId).documents.unshift(filed);
    return filed;
  }

  chart(patientId: string): PatientChart {
    const record = this.#record(patientId);
    return { visit: this.currentVisit(patientId), notes: record.notes, documents: record.documents };
  }

  pdf(documentId: string): Uint8Array | undefined {
    return this.#pdfs.get(documentId);
  }
}
