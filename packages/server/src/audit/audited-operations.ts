import type { EndpointId, Environment } from '@chartwright/protocol';

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
    | 'document'
    | 'project'
    | 'api_key'
    | 'partner'
    | 'member'
    | 'invitation'
    | 'admin_token'
    | 'console_session'
    | 'organisation'
    | 'audit_log'
    | 'webhook_endpoint'
    | 'callback_secret';
  /** The resource's id: from the path, or from the answer of a create; null for a list. */
  resourceId: (call: AuditedCall) => string | null;
  encounter?: EncounterLocator;
  /** A management operation: the project environment it touched, when it touched one. */
  scope?: (call: AuditedCall) => { projectId: string | null; environment: Environment | null };
  /** Signing in: no principal yet, so the member is the one the answer names (none when it failed). */
  signsIn?: true;
}

const param = (name: string) => (call: AuditedCall) => call.params[name] ?? null;

/** The `field` of the answer, when the operation answered one. */
const answered = (field: string) => (call: AuditedCall) => {
  const result = call.result as Record<string, unknown> | undefined;
  const value = result?.[field];
  return typeof value === 'string' ? value : null;
};

const none = () => null;

/** A string at `path` of the answer (`key.id`), when the operation answered one. */
const answeredAt = (path: string) => (call: AuditedCall) => {
  let value: unknown = call.result;
  for (const field of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value : null;
};

const ENVIRONMENT_PATHS = ['environment', 'key.environment', 'partner.environment', 'previous.environment'];

/** The project in the path (or the project just made) and the environment of the body or the answer. */
const projectScope = (call: AuditedCall) => {
  const body = call.body as { environment?: Environment } | undefined;
  const answered = ENVIRONMENT_PATHS.map((path) => answeredAt(path)(call)).find((value) => value !== null);
  return {
    projectId: call.params['projectId'] ?? answeredAt('id')(call),
    environment: body?.environment ?? (answered as Environment | undefined) ?? null,
  };
};

const organisationScope = () => ({ projectId: null, environment: null });

const management = (
  action: AuditAction,
  resourceType: AuditedOperation['resourceType'],
  resourceId: (call: AuditedCall) => string | null,
  scope: AuditedOperation['scope'] = projectScope,
): AuditedOperation => ({ action, resourceType, resourceId, scope });

const member = (action: AuditAction, resourceType: AuditedOperation['resourceType'], resourceId = param('memberId')) =>
  management(action, resourceType, resourceId, organisationScope);

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
  realtimeReadiness: 'no_phi',
  createWidgetToken: 'no_phi',
  getWidgetSession: 'no_phi',
  updateWidgetProfile: 'no_phi',
  consolePage: 'no_phi',
  consoleAsset: 'no_phi',
  inspectConsoleLink: 'no_phi',
  getConsoleSession: 'no_phi',
  listProjects: 'no_phi',
  listApiKeys: 'no_phi',
  listPartners: 'no_phi',
  listMembers: 'no_phi',
  listAdminTokens: 'no_phi',
  getUsage: 'no_phi',
  exportUsage: 'no_phi',

  // Every change to the organisation's credentials and members, and every sign-in, is on record.
  completeConsoleSetup: { action: 'sign_in', resourceType: 'console_session', resourceId: none, signsIn: true },
  acceptConsoleInvitation: { action: 'sign_in', resourceType: 'console_session', resourceId: none, signsIn: true },
  signInToConsole: { action: 'sign_in', resourceType: 'console_session', resourceId: none, signsIn: true },
  startConsoleSso: 'no_phi',
  // Success and failure both answer 303, so the sign-in service records which it was itself.
  completeConsoleSso: 'no_phi',
  getOrganisation: 'no_phi',
  putOrganisationSso: member('update', 'organisation', none),
  deleteOrganisationSso: member('delete', 'organisation', none),
  signOutOfConsole: member('sign_out', 'console_session', none),
  signOutEverywhere: member('sign_out', 'console_session', none),
  createProject: management('create', 'project', answeredAt('id')),
  createApiKey: management('create', 'api_key', answeredAt('key.id')),
  rotateApiKey: management('rotate', 'api_key', param('keyId')),
  revokeApiKey: management('revoke', 'api_key', param('keyId')),
  createPartner: management('create', 'partner', answeredAt('partner.id')),
  updatePartner: management('update', 'partner', param('partnerId')),
  rotatePartnerSecret: management('rotate', 'partner', param('partnerId')),
  revokePartner: management('revoke', 'partner', param('partnerId')),
  inviteMember: member('create', 'invitation', answeredAt('invitation.id')),
  cancelInvitation: member('delete', 'invitation', param('invitationId')),
  updateMember: member('update', 'member'),
  removeMember: member('delete', 'member'),
  createAdminToken: member('create', 'admin_token', answeredAt('token.id')),
  revokeAdminToken: member('revoke', 'admin_token', param('tokenId')),
  listAuditEvents: member('read', 'audit_log', none),
  exportAuditEvents: member('export', 'audit_log', none),

  createNote: { action: 'create', resourceType: 'note', resourceId: answered('id') },
  retrieveNote: { action: 'read', resourceType: 'note', resourceId: param('id'), encounter: { from: 'note' } },
  deleteNote: { action: 'delete', resourceType: 'note', resourceId: param('id'), encounter: { from: 'note' } },
  // Where notes are sent is on record; the delivery log holds no patient data.
  createWebhookEndpoint: { action: 'create', resourceType: 'webhook_endpoint', resourceId: answered('id') },
  deleteWebhookEndpoint: { action: 'delete', resourceType: 'webhook_endpoint', resourceId: param('id') },
  createCallbackSecret: { action: 'rotate', resourceType: 'callback_secret', resourceId: none },
  listWebhookEndpoints: 'no_phi',
  listWebhookDeliveries: 'no_phi',
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
