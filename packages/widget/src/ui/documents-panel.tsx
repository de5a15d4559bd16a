import type { WidgetDocument, WidgetDocumentFormat, WidgetDocumentKind } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { rowsFor } from './format.js';

export interface DocumentEdit {
  title: string;
  content?: string;
  fields?: Record<string, string>;
  format: WidgetDocumentFormat;
}

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
  const [asPdf, setAsPdf] = useState(false);
  const [recipient, setRecipient] = useState('');
  return (
    <section class="panel documents" aria-labelledby="documents-title" aria-busy={busy === 'creating_document'}>
      <h2 id="documents-title">Documents</h2>
      {!canCreate && <p class="muted">Letters and forms are written from the note: generate it first.</p>}
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
              disabled={!canCreate || busy !== null}
              onClick={() => actions.create(kind, { format: asPdf ? 'pdf' : 'text', recipient })}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
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

function DocumentEditor({
  document,
  busy,
  disabled,
  sentRevision,
  onSend,
}: {
  document: WidgetDocument;
  busy: boolean;
  disabled: boolean;
  sentRevision: number | null;
  onSend: (edit: DocumentEdit) => void;
}) {
  const [title, setTitle] = useState(document.title);
  const [content, setContent] = useState(document.content);
  const [fields, setFields] = useState<Record<string, string>>(() =>
    Object.fromEntries((document.fields ?? []).map((field) => [field.key, field.value])),
  );
  const [format, setFormat] = useState<WidgetDocumentFormat>(document.format);
  const id = `document-${document.id}`;
  return (
    <form
      class="document"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        onSend(document.fields === null ? { title, content, format } : { title, fields, format });
      }}
    >
      <h3 id={`${id}-title`}>{document.title}</h3>
      <label class="field">
        <span>Title</span>
        <input type="text" maxLength={200} value={title} onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      {document.fields === null ? (
        <label class="field">
          <span>Text</span>
          <textarea
            rows={rowsFor(content, 6, 20)}
            value={content}
            onInput={(event) => setContent(event.currentTarget.value)}
          />
        </label>
      ) : (
        <fieldset class="form-fields">
          <legend>Fields</legend>
          {document.fields.map((field) => (
            <label key={field.key} class="field">
              <span>{field.label}</span>
              <textarea
                rows={rowsFor(fields[field.key] ?? '', 1, 6)}
                value={fields[field.key] ?? ''}
                onInput={(event) => {
                  const value = event.currentTarget.value;
                  setFields((current) => ({ ...current, [field.key]: value }));
                }}
              />
            </label>
          ))}
        </fieldset>
      )}
      <div class="buttons">
        <label class="choice">
          <input
            type="checkbox"
            checked={format === 'pdf'}
            onChange={(event) => setFormat(event.currentTarget.checked ? 'pdf' : 'text')}
          />
          As PDF
        </label>
        <button type="submit" class="button button-primary" disabled={disabled}>
          {busy ? 'Sending…' : 'Send to chart'}
        </button>
        <span class="sent" role="status">
          {sentRevision === document.revision ? '✓ Sent to chart' : ''}
        </span>
      </div>
    </form>
  );
}
