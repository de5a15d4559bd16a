import type { AuditAction, AuditActorKind, Environment, NoteStyle } from '@chartwright/protocol';

import type {
  AdminTokensTable,
  ConsoleLinksTable,
  ConsoleMembersTable,
  ConsoleSessionsTable,
  ConsoleSsoLoginsTable,
  CreatorKind,
  OrganisationSsoTable,
  OrganisationsTable,
  UsageCountersTable,
} from './console-schema.js';

import type { JobTables, NoteJobColumns } from './jobs-schema.js';

export type { AuditAction, AuditActorKind };
export type * from './console-schema.js';
export type * from './jobs-schema.js';

/** Times are epoch milliseconds in both databases, so comparisons behave the same everywhere. */
export interface ProjectsTable {
  id: string;
  name: string;
  created_at: number;
  /** Since 0015; every project has one (the column is nullable only for SQLite's sake). */
  organisation_id: string;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  environment: Environment;
  name: string;
  secret_hash: string;
  hint: string;
  created_at: number;
  /** Set when the key is rotated: the end of its grace period. */
  expires_at: number | null;
  revoked_at: number | null;
  /** The key that replaced this one at rotation. */
  replaced_by: string | null;
  /** Since 0015; null for keys made before. */
  created_by_kind: CreatorKind | null;
  created_by_id: string | null;
  created_by_label: string | null;
  /** To the hour (auth/usage-recorder.ts); null: not used since 0015. */
  last_used_at: number | null;
}

export interface RealtimeTokensTable {
  id: string;
  secret_hash: string;
  project_id: string;
  environment: Environment;
  /** Exactly one of api_key_id and partner_id is set: who minted the token. */
  api_key_id: string | null;
  partner_id: string | null;
  /** The widget encounter the audio belongs to, for tokens minted by the widget. */
  encounter_id: string | null;
  created_at: number;
  expires_at: number;
}

export interface PartnersTable {
  id: string;
  project_id: string;
  environment: Environment;
  name: string;
  secret_hash: string;
  secret_hint: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: number | null;
  /** JSON array of origins such as `https://emr.example.com`. */
  allowed_origins: string;
  token_lifetime_seconds: number;
  created_at: number;
  revoked_at: number | null;
}

export interface CliniciansTable {
  id: string;
  partner_id: string;
  emr_user_id: string;
  email: string;
  /** How the clinician signs letters, set in the widget; null until set. */
  display_name: string | null;
  created_at: number;
  updated_at: number;
}

export interface EncountersTable {
  id: string;
  project_id: string;
  environment: Environment;
  partner_id: string;
  clinician_id: string;
  emr_session_id: string | null;
  patient_key: string | null;
  patient_id: string | null;
  /** JSON of the validated PATIENT_CONTEXT fields (patient, context, appointment, noteConfig). */
  patient_context: string | null;
  /**
   * JSON of the note template the patient context's noteConfig resolved to, with the host key of each
   * section; set with the patient context, null until then.
   */
  note_template: string | null;
  created_at: number;
  updated_at: number;
}

export interface WidgetSigningKeysTable {
  kid: string;
  algorithm: string;
  /** Empty: earlier versions kept the private key here; it moves to the key file at the first start. */
  private_jwk: string;
  public_jwk: string;
  created_at: number;
}

/** Since 0017 also where it is in the queue (NoteJobColumns); engine and text are empty until `ready`. */
export interface NotesTable extends NoteJobColumns {
  id: string;
  project_id: string;
  environment: Environment;
  template_id: string;
  template_version: number;
  engine_name: string;
  engine_version: string;
  fallback: string | null;
  input_sha256: string;
  note_text: string;
  /** JSON of the sections with their sentences, evidence, support class and cited facts. */
  sections: string;
  created_at: number;
  expires_at: number;
  /** Since 0008 (earlier notes: `detailed`). */
  style: NoteStyle;
  /** JSON ReviewFlag[]; null: none (and every note before 0008). */
  flags: string | null;
  /** JSON Omission[]; null: none. */
  omissions: string | null;
  /** JSON NoteWarning[]; null: none. */
  warnings: string | null;
  /** JSON NoteVerification; null: no verifier ran. */
  verification: string | null;
  /** JSON Fact[] the note was written from; null: the engine gave none. */
  facts: string | null;
}

export interface RealtimeSessionsTable {
  id: string;
  project_id: string;
  environment: Environment;
  credential_kind: 'api_key' | 'realtime_token';
  /** The key that opened the session, or that minted its token. */
  api_key_id: string | null;
  /** The partner whose widget minted the session's token. */
  partner_id: string | null;
  /** The widget encounter the audio belongs to. */
  encounter_id: string | null;
  /** SHA-256 of the resume token. */
  resume_token_hash: string;
  /** JSON of the audio format. */
  audio_format: string;
  language: string;
  created_at: number;
  /** The last start, resume or disconnect. */
  last_seen_at: number;
  ended_at: number | null;
  /** The `ended` event's reason, when the session ended (rather than lost its socket). */
  end_reason: string | null;
  /** Audio the recognizer transcribed to the end, in ms of the session. */
  audio_ms: number;
  /**
   * JSON array, per channel: how far its audio was committed (ms of the session) when the session
   * last lost its socket or ended — where a resume decodes that channel from. Null before then.
   */
  committed_ms: string | null;
  /** Per channel, the recognizer's cepstral mean after its last final (JSON); null before 0012 or with no final. */
  cepstral_means: string | null;
}

export interface TranscriptSegmentsTable {
  session_id: string;
  /** 1, 2, 3…: the number in the segment's id. */
  seq: number;
  /** `seg_000001`… as sent to the client. */
  id: string;
  text: string;
  start_ms: number;
  end_ms: number;
  channel: number;
  speaker: 'clinician' | 'patient' | 'unknown';
  /** `S1`, `S2`…: the channel, or the voice a diarizer found; null when unknown. */
  speaker_label: string | null;
  /** JSON array of words with times (and confidence when the engine gives it). */
  words: string | null;
  /**
   * 1 for a segment stored after its socket was lost (the utterance open at the cut, decoded only
   * up to it), never sent: a resume that resends its audio replaces it. 0 for every other.
   */
  provisional: 0 | 1;
  created_at: number;
}

/**
 * The clinician's corrections of a segment, one row each; the segment itself stays as recognised.
 * Each revision holds the segment's corrected text and speaker as they stand after it (null: never
 * corrected), so the latest revision alone says how the segment reads.
 */
export interface TranscriptSegmentRevisionsTable {
  session_id: string;
  seq: number;
  /** 1, 2…: the segment's corrections in order. */
  revision: number;
  text: string | null;
  speaker: 'clinician' | 'patient' | 'unknown' | null;
  /** The widget clinician who made it. */
  clinician_id: string;
  created_at: number;
}

/** Speaker label → role in a realtime session, where the clinician swapped roles. */
export interface TranscriptSpeakerRolesTable {
  session_id: string;
  speaker_label: string;
  speaker: 'clinician' | 'patient';
  clinician_id: string;
  updated_at: number;
}

/** The patient's consent to recording, recorded once per encounter. */
export interface EncounterConsentsTable {
  encounter_id: string;
  method: 'verbal' | 'written' | 'electronic';
  note: string | null;
  clinician_id: string;
  recorded_at: number;
}

/** A note written for a widget encounter: the generated note (notes.id) and its edits. */
export interface EncounterNotesTable {
  /** The notes row it was generated as; deleting that note (retention) deletes this one. */
  id: string;
  encounter_id: string;
  revision: number;
  /** JSON array of {key (host key), templateKey, label, text}, in template order. */
  sections: string;
  note_text: string;
  /** The conversation the note was written from. */
  transcript: string;
  source: 'transcript' | 'conversation_text';
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export interface EncounterDocumentsTable {
  id: string;
  encounter_id: string;
  document_type: 'referral' | 'letter' | 'form';
  format: 'text' | 'pdf';
  /** The encounter note it was drawn from; null once that note is deleted. */
  note_id: string | null;
  title: string;
  content: string;
  /** JSON array of {key, label, value} for forms. */
  fields: string | null;
  /** Whom a referral is addressed to, as the clinician typed it. */
  recipient: string | null;
  revision: number;
  /** Null for the encounter's current document of its kind (one per kind); else the one that replaced it. */
  superseded_by: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** Every saved revision of a document, so a PDF link serves exactly what was sent. */
export interface EncounterDocumentRevisionsTable {
  document_id: string;
  revision: number;
  title: string;
  content: string;
  /** A form's fields at this revision (JSON); null for letters and for form revisions stored before 0009. */
  fields: string | null;
  /** `generated` by the service (first, or regenerated) or `edited` by the clinician. */
  origin: 'generated' | 'edited';
  created_at: number;
}

/** Secrets the service generates once and every instance shares (e.g. the PDF link key). */
export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface AuditEventsTable {
  seq: number;
  id: string;
  occurred_at: number;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  project_id: string | null;
  environment: Environment | null;
  partner_id: string | null;
  action: AuditAction;
  resource_type: string;
  resource_id: string | null;
  encounter_id: string | null;
  patient_ref: string | null;
  outcome: 'success' | 'failure';
  status: number | null;
  error_code: string | null;
  ip: string | null;
  request_id: string | null;
  previous_hash: string;
  hash: string;
  /** Since 0015: the organisation of a record that belongs to none of its projects (members, sign-ins). */
  organisation_id: string | null;
}

/** The first answer to an Idempotency-Key (0016); see store/idempotency-keys.ts. */
export interface IdempotencyKeysTable {
  /** The caller the key belongs to: `environment:<projectId>:<env>`, `clinician:<id>`, `organisation:<id>`. */
  scope: string;
  /** The endpoint table's operationId. */
  operation: string;
  key: string;
  /** SHA-256 of the canonical JSON of the path parameters and the validated body. */
  request_hash: string;
  claim: string;
  /** Null while the first request runs. */
  response_status: number | null;
  /** The answer, sealed; null while the first request runs. */
  response: string | null;
  /** What the answer made (a note's, document's or encounter's id), so its deletion takes the record. */
  resource_id: string | null;
  /** While the first request runs, when its claim lapses (its instance stopped): then a retry runs it again. */
  locked_until: number;
  created_at: number;
  expires_at: number;
}

export interface DatabaseSchema extends JobTables {
  organisations: OrganisationsTable;
  projects: ProjectsTable;
  console_members: ConsoleMembersTable;
  console_sessions: ConsoleSessionsTable;
  console_links: ConsoleLinksTable;
  admin_tokens: AdminTokensTable;
  organisation_sso: OrganisationSsoTable;
  console_sso_logins: ConsoleSsoLoginsTable;
  usage_counters: UsageCountersTable;
  api_keys: ApiKeysTable;
  realtime_tokens: RealtimeTokensTable;
  partners: PartnersTable;
  clinicians: CliniciansTable;
  encounters: EncountersTable;
  widget_signing_keys: WidgetSigningKeysTable;
  notes: NotesTable;
  realtime_sessions: RealtimeSessionsTable;
  transcript_segments: TranscriptSegmentsTable;
  transcript_segment_revisions: TranscriptSegmentRevisionsTable;
  transcript_speaker_roles: TranscriptSpeakerRolesTable;
  encounter_consents: EncounterConsentsTable;
  encounter_notes: EncounterNotesTable;
  encounter_documents: EncounterDocumentsTable;
  encounter_document_revisions: EncounterDocumentRevisionsTable;
  service_secrets: ServiceSecretsTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
}
