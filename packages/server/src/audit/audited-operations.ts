import type { EndpointId } from '@chartwright/protocol';

import type { AuditAction } from '../store/schema.js';

/** What an operation was called with, and what it answered (undefined when it failed). */
export interface AuditedCall {
  params: Readonly<Record<string, string | undefined>>;
  body: unknown;
  result: unknown;
}

/** Where the encounter of an operation's resource is found, so its record can name the patient. */
export type EncounterLocator =
  | { from: 'param'; name: string }
  | { from: 'body'; name: string }
  | { from: 'result'; name: string }
  | { from: 'note' | 'document' | 'realtime_session' };

export interface AuditedOperation {
  action: AuditAction | ((call: AuditedCall) => AuditAction);
  resourceType:
    | 'note'
    | 'realtime_session'
    | 'encounter'
    | 'patient_context'
    | 'consent'
    | 'transcript'
    | 'transcript_segment'
    | 'realtime_token'
    | 'document';
  /** The resource's id: from the path, or from the answer of a create; null for a list. */
  resourceId: (call: AuditedCall) => string | null;
  encounter?: EncounterLocator;
}

const param = (name: string) => (call: AuditedCall) => call.params[name] ?? null;

/** The `field` of the answer, when the operation answered one. */
const answered = (field: string) => (call: AuditedCall) => {
  const result = call.result as Record<string, unknown> | undefined;
  const value = result?.[field];
  return typeof value === 'string' ? value : null;
};

const none = () => null;

const encounterParam: EncounterLocator = { from: 'param', name: 'sessionId' };

/**
 * Every operation of the endpoint table, and whether calling it touches patient data. Those that do
 * leave an audit record, whatever their outcome; the table names every operation, so a new one
 * cannot be added without deciding.
 */
export const AUDITED_OPERATIONS: Readonly<Record<EndpointId, AuditedOperation | 'no_phi'>> = {
  // Templates, tokens, keys, health and the widget's page hold no patient data.
  listTemplates: 'no_phi',
  createRealtimeToken: 'no_phi',
  openRealtimeSession: 'no_phi', // the socket records its session itself, once it knows which (realtime/route.ts)
  widgetJwks: 'no_phi',
  widgetPage: 'no_phi',
  widgetAsset: 'no_phi',
  openApiDocument: 'no_phi',
  liveness: 'no_phi',
  readiness: 'no_phi',
  createWidgetToken: 'no_phi',
  getWidgetSession: 'no_phi',
  updateWidgetProfile: 'no_phi',

  createNote: { action: 'create', resourceType: 'note', resourceId: answered('id') },
  retrieveNote: { action: 'read', resourceType: 'note', resourceId: param('id'), encounter: { from: 'note' } },
  deleteNote: { action: 'delete', resourceType: 'note', resourceId: param('id'), encounter: { from: 'note' } },
  retrieveRealtimeSession: {
    action: 'read',
    resourceType: 'realtime_session',
    resourceId: param('id'),
    encounter: { from: 'realtime_session' },
  },
  deleteRealtimeSession: {
    action: 'delete',
    resourceType: 'realtime_session',
    resourceId: param('id'),
    encounter: { from: 'realtime_session' },
  },

  openWidgetEncounter: {
    action: (call) => ((call.result as { resumed?: boolean } | undefined)?.resumed === true ? 'read' : 'create'),
    resourceType: 'encounter',
    resourceId: answered('sessionId'),
    encounter: { from: 'result', name: 'sessionId' },
  },
  setWidgetPatientContext: {
    action: 'update',
    resourceType: 'patient_context',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  createWidgetRealtimeToken: {
    action: 'create',
    resourceType: 'realtime_token',
    resourceId: none,
    encounter: { from: 'body', name: 'sessionId' },
  },
  getWidgetEncounter: {
    action: 'read',
    resourceType: 'encounter',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  deleteWidgetEncounter: {
    action: 'delete',
    resourceType: 'encounter',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  withdrawWidgetConsent: {
    action: 'delete',
    resourceType: 'consent',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  recordWidgetConsent: {
    action: 'create',
    resourceType: 'consent',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  getWidgetTranscript: {
    action: 'read',
    resourceType: 'transcript',
    resourceId: param('sessionId'),
    encounter: encounterParam,
  },
  correctWidgetTranscriptSegment: {
    action: 'update',
    resourceType: 'transcript_segment',
    resourceId: (call) => `${call.params['realtimeSessionId'] ?? ''}/${call.params['segmentId'] ?? ''}`,
    encounter: encounterParam,
  },
  swapWidgetSpeakerRoles: {
    action: 'update',
    resourceType: 'transcript',
    resourceId: param('realtimeSessionId'),
    encounter: encounterParam,
  },
  generateWidgetNote: { action: 'create', resourceType: 'note', resourceId: answered('id'), encounter: encounterParam },
  listWidgetNotes: { action: 'read', resourceType: 'note', resourceId: none, encounter: encounterParam },
  updateWidgetNote: { action: 'update', resourceType: 'note', resourceId: param('noteId'), encounter: encounterParam },
  deleteWidgetNote: { action: 'delete', resourceType: 'note', resourceId: param('noteId'), encounter: encounterParam },
  recordWidgetNotePush: {
    action: 'push',
    resourceType: 'note',
    resourceId: param('noteId'),
    encounter: encounterParam,
  },
  createWidgetDocument: {
    action: 'create',
    resourceType: 'document',
    resourceId: answered('id'),
    encounter: encounterParam,
  },
  listWidgetDocuments: { action: 'read', resourceType: 'document', resourceId: none, encounter: encounterParam },
  updateWidgetDocument: {
    action: 'update',
    resourceType: 'document',
    resourceId: param('documentId'),
    encounter: encounterParam,
  },
  deleteWidgetDocument: {
    action: 'delete',
    resourceType: 'document',
    resourceId: param('documentId'),
    encounter: encounterParam,
  },
  recordWidgetDocumentPush: {
    action: 'push',
    resourceType: 'document',
    resourceId: param('documentId'),
    encounter: encounterParam,
  },
  createWidgetDocumentPdf: {
    action: 'export',
    resourceType: 'document',
    resourceId: param('documentId'),
    encounter: encounterParam,
  },
  downloadWidgetDocumentPdf: {
    action: 'export',
    resourceType: 'document',
    resourceId: param('documentId'),
    encounter: { from: 'document' },
  },
};
