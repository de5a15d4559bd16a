import type { WidgetDocument, WidgetDocumentFormat } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { rowsFor } from './format.js';

export interface DocumentEdit {
  title: string;
  content?: string;
  fields?: Record<string, string>;
  format: WidgetDocumentFormat;
}

/** One document as the clinician edits it: its title, its text (or a form's fields), PDF or not. */
export function DocumentEditor({
  document,
  busy,
  disabled,
  sentRevision,
  onSend,
  onRestore,
}: {
  document: WidgetDocument;
  busy: boolean;
  disabled: boolean;
  sentRevision: number | null;
  onSend: (edit: DocumentEdit) => void;
  onRestore: () => void;
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
      <PreviousEdit document={document} disabled={disabled} onRestore={onRestore} />
      <label class="field">
        <span>Title</span>
        <input type="text" maxLength={200} value={title} onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      <DocumentBody
        document={document}
        content={content}
        onContent={setContent}
        values={fields}
        onField={(key, value) => setFields((current) => ({ ...current, [key]: value }))}
      />
      <SendRow
        format={format}
        onFormat={setFormat}
        busy={busy}
        disabled={disabled}
        sent={sentRevision === document.revision}
      />
    </form>
  );
}

/** A regeneration replaced the clinician's edits: they are kept, and one click puts them back. */
function PreviousEdit({
  document,
  disabled,
  onRestore,
}: {
  document: WidgetDocument;
  disabled: boolean;
  onRestore: () => void;
}) {
  if (document.previousEdit === null) return null;
  return (
    <div class="callout callout-info" role="note">
      <p>
        Rewritten from the latest note (revision {document.revision}). Your edited version (revision{' '}
        {document.previousEdit.revision}) is kept.
      </p>
      <button type="button" class="button button-small" disabled={disabled} onClick={onRestore}>
        Restore my edited version
      </button>
    </div>
  );
}

/** A letter's text, or a form's fields one by one. */
function DocumentBody({
  document,
  content,
  onContent,
  values,
  onField,
}: {
  document: WidgetDocument;
  content: string;
  onContent: (content: string) => void;
  values: Readonly<Record<string, string>>;
  onField: (key: string, value: string) => void;
}) {
  if (document.fields === null) {
    return (
      <label class="field">
        <span>Text</span>
        <textarea
          rows={rowsFor(content, 6, 20)}
          value={content}
          onInput={(event) => onContent(event.currentTarget.value)}
        />
      </label>
    );
  }
  return (
    <fieldset class="form-fields">
      <legend>Fields</legend>
      {document.fields.map((field) => (
        <label key={field.key} class="field">
          <span>{field.label}</span>
          <textarea
            rows={rowsFor(values[field.key] ?? '', 1, 6)}
            value={values[field.key] ?? ''}
            onInput={(event) => onField(field.key, event.currentTarget.value)}
          />
        </label>
      ))}
    </fieldset>
  );
}

function SendRow({
  format,
  onFormat,
  busy,
  disabled,
  sent,
}: {
  format: WidgetDocumentFormat;
  onFormat: (format: WidgetDocumentFormat) => void;
  busy: boolean;
  disabled: boolean;
  sent: boolean;
}) {
  return (
    <div class="buttons">
      <label class="choice">
        <input
          type="checkbox"
          checked={format === 'pdf'}
          onChange={(event) => onFormat(event.currentTarget.checked ? 'pdf' : 'text')}
        />
        As PDF
      </label>
      <button type="submit" class="button button-primary" disabled={disabled}>
        {busy ? 'Sending…' : 'Send to chart'}
      </button>
      <span class="sent" role="status">
        {sent ? '✓ Sent to chart' : ''}
      </span>
    </div>
  );
}
