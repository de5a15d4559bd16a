import type { WidgetNote } from '@chartwright/protocol';

import { rowsFor } from './format.js';

export interface NoteActions {
  generate: () => void;
  edit: (key: string, text: string) => void;
  send: () => void;
}

export function NotePanel({
  note,
  draft,
  busy,
  canGenerate,
  sentRevision,
  actions,
}: {
  note: WidgetNote | null;
  draft: Readonly<Record<string, string>>;
  busy: 'generating' | 'sending_note' | null;
  canGenerate: boolean;
  sentRevision: number | null;
  actions: NoteActions;
}) {
  return (
    <section class="panel note" aria-labelledby="note-title" aria-busy={busy === 'generating'}>
      <div class="panel-head">
        <h2 id="note-title">Note</h2>
        <button type="button" class="button" onClick={actions.generate} disabled={!canGenerate || busy !== null}>
          {note === null ? 'Generate note' : 'Regenerate'}
        </button>
      </div>
      {busy === 'generating' && (
        <div class="progress" role="status">
          <progress aria-label="Writing the note" />
          <span>Writing the note from the transcript…</span>
        </div>
      )}
      {note !== null && (
        <NoteForm note={note} draft={draft} busy={busy} sentRevision={sentRevision} actions={actions} />
      )}
    </section>
  );
}

/** One text box per section, under the EMR's labels, and whether this text has been sent. */
function NoteForm({
  note,
  draft,
  busy,
  sentRevision,
  actions,
}: {
  note: WidgetNote;
  draft: Readonly<Record<string, string>>;
  busy: 'generating' | 'sending_note' | null;
  sentRevision: number | null;
  actions: NoteActions;
}) {
  const edited = note.headings.some(({ key }) => (draft[key] ?? '') !== (note.sections[key] ?? ''));
  const sent = !edited && sentRevision === note.revision;
  return (
    <form
      class="note-form"
      onSubmit={(event) => {
        event.preventDefault();
        actions.send();
      }}
    >
      {note.headings.map(({ key, label }) => (
        <label key={key} class="field">
          <span>{label}</span>
          <textarea
            rows={rowsFor(draft[key] ?? '', 3, 12)}
            value={draft[key] ?? ''}
            onInput={(event) => actions.edit(key, event.currentTarget.value)}
          />
        </label>
      ))}
      <div class="buttons">
        <button type="submit" class="button button-primary" disabled={busy !== null}>
          {busy === 'sending_note' ? 'Sending…' : 'Send to chart'}
        </button>
        <span class="sent" role="status">
          {sent ? '✓ Sent to chart' : edited ? 'Edited — not sent yet' : ''}
        </span>
      </div>
    </form>
  );
}
