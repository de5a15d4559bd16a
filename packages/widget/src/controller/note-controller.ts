import { WidgetApiError } from '../api/widget-api-error.js';
import type { ControllerContext } from './context.js';
import { describe, whileBusy } from './notices.js';
import { editedSections, pushNoteOf } from './push-messages.js';
import { activeEncounterOf } from './widget-state.js';

/** The encounter's note: written from the transcript, edited section by section, sent to the chart. */
export class NoteController {
  constructor(private readonly context: ControllerContext) {}

  /** Writes the note from the transcript with the SET_CONTEXT text; the caller finishes any recording first. */
  async generate(): Promise<void> {
    const { store, api } = this.context;
    const encounter = activeEncounterOf(store.state);
    if (encounter === null) return;
    const { extraContext } = store.state;
    await whileBusy(
      store,
      'generating',
      async () => {
        const note = await api.generateNote(encounter.encounterId, extraContext === '' ? {} : { extraContext });
        store.dispatch({ type: 'note_written', note });
      },
      (error) =>
        error instanceof WidgetApiError && error.code === 'transcript_empty'
          ? 'Nothing has been transcribed yet: record the visit first.'
          : describe(error),
    );
  }

  edit(key: string, text: string): void {
    this.context.store.dispatch({ type: 'note_section_edited', key, text });
  }

  /** Saves the edits (a new revision), then sends the note to the chart: PUSH_NOTE, every time. */
  async send(): Promise<void> {
    const { store, api, post } = this.context;
    const encounter = activeEncounterOf(store.state);
    if (encounter === null) return;
    const { note, encounterId, patient, noteDraft } = encounter;
    if (note === null || patient === null) return;
    await whileBusy(
      store,
      'sending_note',
      async () => {
        const edited = editedSections(note, noteDraft);
        const saved =
          Object.keys(edited).length === 0
            ? note
            : await api.updateNote(encounterId, note.id, { sections: edited, revision: note.revision });
        // On record before it leaves: the audit log holds every disclosure to the chart.
        await api.recordNotePush(encounterId, saved.id, { revision: saved.revision });
        store.dispatch({ type: 'note_sent', note: saved });
        post(pushNoteOf(saved, { encounterId, patientId: patient.id }));
      },
      (error) =>
        error instanceof WidgetApiError && error.code === 'revision_conflict'
          ? 'The note was changed elsewhere (another tab?). Reopen the scribe to see the latest version.'
          : describe(error),
    );
  }
}
