export { Chartwright } from './client.js';
export {
  DEFAULT_MAX_RETRIES,
  PRODUCTION_BASE_URL,
  SANDBOX_BASE_URL,
  type ChartwrightOptions,
  type TransportOptions,
} from './core/options.js';
export type { ApiKeySource } from './core/credentials.js';
export type { RequestOptions } from './core/http.js';
export type { Logger, WebSocketConstructor, WebSocketLike } from './core/context.js';
export { detectBrowser } from './core/environment.js';
export { CLIENT_VERSION } from './core/version.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  ChartwrightError,
  ConflictError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UserAbortError,
  type APIErrorInit,
} from './errors.js';
export {
  NoteFailedError,
  type AsyncNoteCreateParams,
  type Note,
  type NoteCreateParams,
  type NoteProgress,
  type NoteRetrieveParams,
  type Notes,
  type NoteSection,
  type NoteStreamEvent,
  type WaitUntilReadyOptions,
} from './resources/notes.js';
export type {
  CallbackSecret,
  IssuedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryListParams,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpoints,
  Webhooks,
} from './resources/webhooks.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks/verify-webhook.js';
export type {
  Fact,
  FactKind,
  NoteInclude,
  NoteSegmentInput as NoteSegment,
  NoteStatus,
  NoteStyle,
  NoteVerification,
  NoteWarning,
  NoteWarningCode,
  Omission,
  ReviewFlag,
  ReviewFlagCode,
  SupportClass,
  WebhookEventType,
} from '@chartwright/protocol';
export type { Realtime, RealtimeTokenCreateParams, RealtimeTokens } from './resources/realtime.js';
export type { Templates } from './resources/templates.js';
export type { RealtimeToken, Template, TemplateSection } from '@chartwright/protocol';
export { ManagementClient, type ManagementClientOptions } from './management/management-client.js';
export type { AdminTokens } from './management/admin-tokens.js';
export type { ApiKeyCreateParams, ApiKeyListParams, ApiKeys, RotateParams } from './management/api-keys.js';
export type { AuditEventExportParams, AuditEventListParams, AuditEvents } from './management/audit-events.js';
export type { Members } from './management/members.js';
export type { Organisation } from './management/organisation.js';
export type { PartnerCreateParams, PartnerUpdateParams, Partners } from './management/partners.js';
export type { ProjectCreateParams, Projects } from './management/projects.js';
export type { Usage, UsageListParams } from './management/usage.js';
export type {
  AdminToken,
  AdminTokenRole,
  ApiKey,
  AuditActorKind,
  AuditAction,
  AuditEvent,
  AuditEventPage,
  ConsoleActor,
  ConsoleRole,
  Invitation,
  IssuedAdminToken,
  IssuedApiKey,
  IssuedInvitation,
  IssuedPartnerKey,
  Member,
  MemberList,
  Partner,
  Project,
  RotatedApiKey,
  UsageDay,
} from '@chartwright/protocol';
export * from './realtime/index.js';
export * from './microphone/index.js';
