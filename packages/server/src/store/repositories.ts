import { AdminTokensRepository } from './admin-tokens.js';
import { ApiKeysRepository } from './api-keys.js';
import { AuditEventsRepository } from './audit-events.js';
import { CliniciansRepository } from './clinicians.js';
import { ConsoleMembersRepository } from './console-members.js';
import type { CredentialChanges } from './credential-changes.js';
import type { Database } from './database.js';
import { EncounterConsentsRepository } from './encounter-consents.js';
import { EncounterDocumentsRepository } from './encounter-documents.js';
import { EncounterNotesRepository } from './encounter-notes.js';
import { EncountersRepository } from './encounters.js';
import { IdempotencyKeysRepository } from './idempotency-keys.js';
import { NoteJobsRepository } from './note-jobs.js';
import { NotesRepository } from './notes.js';
import { OrganisationSsoRepository } from './organisation-sso.js';
import { OrganisationsRepository } from './organisations.js';
import { PartnersRepository } from './partners.js';
import { ProjectsRepository } from './projects.js';
import { RealtimeSessionsRepository, TranscriptSegmentsRepository } from './realtime-sessions.js';
import { RealtimeTokensRepository } from './realtime-tokens.js';
import { ServiceSecretsRepository } from './service-secrets.js';
import { SigningKeysRepository } from './signing-keys.js';
import { TranscriptCorrectionsRepository } from './transcript-corrections.js';
import { UsageCountersRepository } from './usage-counters.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.js';

export interface Repositories {
  /** What credential caches watch; every repository that writes a cached row publishes to it. */
  credentialChanges: CredentialChanges;
  organisations: OrganisationsRepository;
  projects: ProjectsRepository;
  consoleMembers: ConsoleMembersRepository;
  adminTokens: AdminTokensRepository;
  organisationSso: OrganisationSsoRepository;
  usageCounters: UsageCountersRepository;
  apiKeys: ApiKeysRepository;
  realtimeTokens: RealtimeTokensRepository;
  partners: PartnersRepository;
  clinicians: CliniciansRepository;
  encounters: EncountersRepository;
  signingKeys: SigningKeysRepository;
  notes: NotesRepository;
  noteJobs: NoteJobsRepository;
  webhookEndpoints: WebhookEndpointsRepository;
  webhookDeliveries: WebhookDeliveriesRepository;
  realtimeSessions: RealtimeSessionsRepository;
  transcriptSegments: TranscriptSegmentsRepository;
  transcriptCorrections: TranscriptCorrectionsRepository;
  encounterConsents: EncounterConsentsRepository;
  encounterNotes: EncounterNotesRepository;
  encounterDocuments: EncounterDocumentsRepository;
  serviceSecrets: ServiceSecretsRepository;
  auditEvents: AuditEventsRepository;
  idempotencyKeys: IdempotencyKeysRepository;
}

export function createRepositories(database: Database): Repositories {
  return {
    credentialChanges: database.credentialChanges,
    organisations: new OrganisationsRepository(database.db),
    projects: new ProjectsRepository(database.db),
    consoleMembers: new ConsoleMembersRepository(database.db),
    adminTokens: new AdminTokensRepository(database.db),
    organisationSso: new OrganisationSsoRepository(database.db),
    usageCounters: new UsageCountersRepository(database.db),
    apiKeys: new ApiKeysRepository(database.db, database.credentialChanges),
    realtimeTokens: new RealtimeTokensRepository(database.db),
    partners: new PartnersRepository(database.db, database.credentialChanges),
    clinicians: new CliniciansRepository(database.db, database.credentialChanges),
    encounters: new EncountersRepository(database.db),
    signingKeys: new SigningKeysRepository(database.db),
    notes: new NotesRepository(database.db),
    noteJobs: new NoteJobsRepository(database.db),
    webhookEndpoints: new WebhookEndpointsRepository(database.db),
    webhookDeliveries: new WebhookDeliveriesRepository(database.db),
    realtimeSessions: new RealtimeSessionsRepository(database.db),
    transcriptSegments: new TranscriptSegmentsRepository(database.db),
    transcriptCorrections: new TranscriptCorrectionsRepository(database.db),
    encounterConsents: new EncounterConsentsRepository(database.db),
    encounterNotes: new EncounterNotesRepository(database.db),
    encounterDocuments: new EncounterDocumentsRepository(database.db),
    serviceSecrets: new ServiceSecretsRepository(database.db),
    auditEvents: new AuditEventsRepository(database.db, database.dialect),
    idempotencyKeys: new IdempotencyKeysRepository(database.db),
  };
}
