import type { WidgetDocument, WidgetDocumentFormat, WidgetDocumentKind } from '@chartwright/protocol';
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';

import { DocumentEditor, type DocumentEdit } from './document-editor.js';
import { SignatureRow, type Signature } from './signature-row.js';

export interface DocumentActions {
  create: (kind: WidgetDocumentKind, options: { format: WidgetDocumentFormat; recipient: string }) => void;
  send: (documentId: string, edit: DocumentEdit) => void;
  restore: (documentId: string) => void;
  saveName: (displayName: string) => void;
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
  signature,
  actions,
}: {
  documents: readonly WidgetDocument[];
  busy: string | null;
  canCreate: boolean;
  sent: Readonly<Record<string, number>>;
  signature: Signature;
  actions: DocumentActions;
}) {
  const referral = documents.find((document) => document.documentType === 'referral');
  return (
    <section class="panel documents" aria-labelledby="documents-title" aria-busy={busy === 'creating_document'}>
      <h2 id="documents-title">Documents</h2>
      <SignatureRow signature={signature} busy={busy === 'saving_profile'} onSave={actions.saveName} />
      {!canCreate && <p class="muted">Letters and forms are written from the note: generate it first.</p>}
      <DocumentCreator
        disabled={!canCreate || busy !== null}
        written={new Set(documents.map((document) => document.documentType))}
        keptRecipient={referral?.recipient ?? null}
        onCreate={actions.create}
      />
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
          onRestore={() => actions.restore(document.id)}
        />
      ))}
    </section>
  );
}

/**
 * Which document to write from the note, to whom a referral is addressed (typed by the clinician;
 * a referral written before keeps its addressee), and whether it goes as a PDF. One draft per kind:
 * writing a kind again makes a new revision of it.
 */
function DocumentCreator({
  disabled,
  written,
  keptRecipient,
  onCreate,
}: {
  disabled: boolean;
  written: ReadonlySet<WidgetDocumentKind>;
  keptRecipient: string | null;
  onCreate: DocumentActions['create'];
}) {
  const [asPdf, setAsPdf] = useState(false);
  const [recipient, setRecipient] = useState('');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const create = (kind: WidgetDocumentKind) => {
    if (kind === 'referral' && recipient.trim() === '' && keptRecipient === null) {
      setMissing(true);
      input.current?.focus();
      return;
    }
    onCreate(kind, { format: asPdf ? 'pdf' : 'text', recipient });
  };
  return (
    <div class="document-create">
      <RecipientField
        input={input}
        value={recipient}
        missing={missing}
        kept={keptRecipient}
        onInput={(value) => {
          setRecipient(value);
          setMissing(false);
        }}
      />
      <label class="choice">
        <input type="checkbox" checked={asPdf} onChange={(event) => setAsPdf(event.currentTarget.checked)} />
        Send as PDF
      </label>
      <div class="buttons" role="group" aria-label="Write a document" aria-describedby="rewrite-help">
        {KINDS.map(({ kind, label }) => (
          <button key={kind} type="button" class="button" disabled={disabled} onClick={() => create(kind)}>
            {label}
          </button>
        ))}
      </div>
      {written.size > 0 && (
        <p id="rewrite-help" class="muted">
          Writing a kind again rewrites it from the latest note as a new revision; your edited version is kept.
        </p>
      )}
    </div>
  );
}

/** The referral's addressee, as the clinician types it; an error when a referral is asked for without one. */
function RecipientField({
  input,
  value,
  missing,
  kept,
  onInput,
}: {
  input: RefObject<HTMLInputElement>;
  value: string;
  missing: boolean;
  kept: string | null;
  onInput: (value: string) => void;
}) {
  return (
    <label class="field">
      <span>Referral to</span>
      <input
        ref={input}
        type="text"
        maxLength={300}
        value={value}
        aria-invalid={missing}
        aria-describedby="recipient-help"
        onInput={(event) => onInput(event.currentTarget.value)}
        placeholder={kept ?? 'e.g. Dr. Lee, Respirology'}
      />
      <span id="recipient-help" class={missing ? 'field-error' : 'muted'} role={missing ? 'alert' : undefined}>
        {missing
          ? 'Type whom the referral is addressed to.'
          : kept === null
            ? 'Whom a referral is addressed to.'
            : `Left empty, the referral stays addressed to ${kept}.`}
      </span>
    </label>
  );
}
