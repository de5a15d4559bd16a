import type { ReviewFlag, WidgetNote } from '@chartwright/protocol';

import { rowsFor, sentencesOf } from './format.js';
import { FlagItem, NoteWarnings, ReviewAside } from './note-review.js';

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

/**
 * The note as the clinician reads and edits it: the service's warnings first, then one text box per
 * section under the EMR's labels — each as tall as its text, so the note reads without scrolling
 * inside it — with the flags of that section under it, and beside it what the note may be missing.
 */
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
  const { flags, omissions, warnings } = note;
  const keys = new Set(note.headings.map(({ key }) => key));
  return (
    <>
      <NoteWarnings warnings={warnings} />
      <div class="note-layout">
        <form
          class="note-form"
          aria-label="Note sections"
          onSubmit={(event) => {
            event.preventDefault();
            actions.send();
          }}
        >
          {note.headings.map(({ key, label }) => (
            <NoteSection
              key={key}
              id={`note-section-${key}`}
              label={label}
              text={draft[key] ?? ''}
              // Sentence numbers point into the text as written; after an edit they may not.
              written={note.revision === 1 ? (note.sections[key] ?? '') : null}
              flags={flags.filter((flag) => flag.section === key)}
              onEdit={(text) => actions.edit(key, text)}
            />
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
        <ReviewAside
          checked={note.verification !== null}
          omissions={omissions}
          flags={flags.filter((flag) => flag.section === null || !keys.has(flag.section))}
        />
      </div>
    </>
  );
}

/** One section, edited in place: a text box that grows with its text, and the flags to check in it. */
function NoteSection({
  id,
  label,
  text,
  written,
  flags,
  onEdit,
}: {
  id: string;
  label: string;
  text: string;
  written: string | null;
  flags: readonly ReviewFlag[];
  onEdit: (text: string) => void;
}) {
  const sentences = written === null ? [] : sentencesOf(written);
  return (
    <div class={`note-section${flags.length > 0 ? ' note-section-flagged' : ''}`}>
      <label class="field">
        <span>{label}</span>
        <textarea
          class="grow"
          rows={rowsFor(text, 2, 400)}
          value={text}
          aria-describedby={flags.length > 0 ? `${id}-flags` : undefined}
          onInput={(event) => onEdit(event.currentTarget.value)}
        />
      </label>
      {flags.length > 0 && (
        <ul class="flags" id={`${id}-flags`} aria-label={`To check in ${label}`}>
          {flags.map((flag, index) => (
            <FlagItem
              key={index}
              flag={flag}
              sentence={flag.sentence === null ? null : (sentences[flag.sentence] ?? null)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
