import { abandonedSignal } from '../http/abandoned.js';
import { route, type Area } from '../http/route.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { EncounterNoteService } from './encounter-notes.js';
import type { EncounterService } from './encounter-service.js';
import type { TranscriptCorrectionService } from './transcript-corrections.js';

/**
 * What the iframe does with an encounter: open or resume it, set its patient, record consent, get a
 * realtime token for its audio, read and correct its transcript, write and edit its notes, and
 * restore it all on relaunch. The wire names the encounter `sessionId`.
 */
export function encounterRoutes(
  widget: Area<'widget_token', WidgetSession>,
  services: { encounters: EncounterService; notes: EncounterNoteService; corrections: TranscriptCorrectionService },
): void {
  const { encounters, notes, corrections } = services;

  route(widget, 'openWidgetEncounter', ({ principal }) => encounters.open(principal));

  route(widget, 'setWidgetPatientContext', ({ body, params, principal }) =>
    encounters.setPatientContext(principal, params.sessionId, body),
  );

  route(widget, 'createWidgetRealtimeToken', ({ body, principal }) => {
    const { sessionId: encounterId, expiresInSeconds } = body;
    return encounters.mintRealtimeToken(principal, {
      encounterId,
      ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
    });
  });

  route(widget, 'getWidgetEncounter', ({ params, principal }) => encounters.state(principal, params.sessionId));

  route(widget, 'deleteWidgetEncounter', async ({ params, principal }) => {
    await encounters.delete(principal, params.sessionId);
    return null;
  });

  route(widget, 'recordWidgetConsent', ({ body, params, principal }) =>
    encounters.recordConsent(principal, params.sessionId, body),
  );

  route(widget, 'withdrawWidgetConsent', async ({ params, principal }) => {
    await encounters.withdrawConsent(principal, params.sessionId);
    return null;
  });

  route(widget, 'getWidgetTranscript', ({ params, principal }) => encounters.transcript(principal, params.sessionId));

  route(widget, 'correctWidgetTranscriptSegment', ({ body, params, principal }) =>
    corrections.correctSegment(
      principal,
      { encounterId: params.sessionId, realtimeSessionId: params.realtimeSessionId, segmentId: params.segmentId },
      body,
    ),
  );

  route(widget, 'swapWidgetSpeakerRoles', ({ body, params, principal }) =>
    corrections.swapRoles(
      principal,
      { encounterId: params.sessionId, realtimeSessionId: params.realtimeSessionId },
      body.speakerLabel,
    ),
  );

  encounterNoteRoutes(widget, notes);
}

/** The encounter's notes: written from its transcript (or typed text), listed, edited, deleted. */
function encounterNoteRoutes(widget: Area<'widget_token', WidgetSession>, notes: EncounterNoteService): void {
  route(widget, 'generateWidgetNote', ({ body, params, principal, reply }) =>
    notes.generate(principal, params.sessionId, body, abandonedSignal(reply)),
  );

  route(widget, 'listWidgetNotes', async ({ params, principal }) => ({
    notes: await notes.list(principal, params.sessionId),
  }));

  route(widget, 'updateWidgetNote', ({ body, params, principal }) =>
    notes.update(principal, params.sessionId, params.noteId, body),
  );

  route(widget, 'recordWidgetNotePush', async ({ body, params, principal }) => {
    await notes.recordPush(principal, params.sessionId, params.noteId, body.revision);
    return null;
  });

  route(widget, 'deleteWidgetNote', async ({ params, principal }) => {
    await notes.delete(principal, params.sessionId, params.noteId);
    return null;
  });
}
