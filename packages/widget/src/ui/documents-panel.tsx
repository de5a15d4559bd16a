import type { WidgetDocument, WidgetDocumentFormat, WidgetDocumentKind } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { DocumentEditor, type DocumentEdit } from './document-editor.js';

export interface DocumentActions {
  create: (kind: WidgetDocumentKind, options: { format: WidgetDocumentFormat; recipient: string }) => void;
  send: (documentId: string, edit: DocumentEdit) => void;
}

const KINDS: { kind: WidgetDocumentKind; label: string }[] = [
  { kind: 'referral', label: 'Referral letter' },
  { kind: 'letter', label: 'Patient letter' },
  { kind: 'form', label: 'Form' },
];

export function DocumentsPanel({
  documents,
  busy,
  canCreate,
  sent,
  actions,
}: {
  documents: readonly WidgetDocument[];
  busy: string | null;
  canCreate: boolean;
  sent: Readonly<Record<string, number>>;
  actions: DocumentActions;
}) {
  return (
    <section class="panel documents" aria-labelledby="documents-title" aria-busy={busy === 'creating_document'}>
      <h2 id="documents-title">Documents</h2>
      {!canCreate && <p class="muted">Letters and forms are written from the note: generate it first.</p>}
      <DocumentCreator disabled={!canCreate || busy !== null} onCreate={actions.create} />
      {busy === 'creating_document' && (
        <div class="progress" role="status">
          <progress aria-label="Writing the document" />
          <span>Writing the document…</span>
        </div>
      )}
      {documents.map((document) => (
        <DocumentEditor
          key={`${document.id}:${document.revision}`}
          document={document}
          busy={busy === `document:${document.id}`}
          disabled={busy !== null}
          sentRevision={sent[document.id] ?? null}
          onSend={(edit) => actions.send(document.id, edit)}
        />
      ))}
    </section>
  );
}

/** Which document to write from the note, to whom for a referral, and whether it goes as a PDF. */
function DocumentCreator({ disabled, onCreate }: { disabled: boolean; onCreate: DocumentActions['create'] }) {
  const [asPdf, setAsPdf] = useState(false);
  const [recipient, setRecipient] = useState('');
  return (
    <div class="document-create">
      <label class="field">
        <span>Referral to (optional)</span>
        <input
          type="text"
          maxLength={300}
          value={recipient}
          onInput={(event) => setRecipient(event.currentTarget.value)}
          placeholder="e.g. Dr. Lee, Respirology"
        />
      </label>
      <label class="choice">
        <input type="checkbox" checked={asPdf} onChange={(event) => setAsPdf(event.currentTarget.checked)} />
        Send as PDF
      </label>
      <div class="buttons" role="group" aria-label="Write a document">
        {KINDS.map(({ kind, label }) => (
          <button
            key={kind}
            type="button"
            class="button"
            disabled={disabled}
            onClick={() => onCreate(kind, { format: asPdf ? 'pdf' : 'text', recipient })}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
