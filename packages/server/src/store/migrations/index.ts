import type { Migration, MigrationProvider } from 'kysely';

import { initial } from './0001-initial.js';
import { widget } from './0002-widget.js';
import { notes } from './0003-notes.js';
import { realtime } from './0004-realtime.js';
import { realtimeRetention } from './0005-realtime-retention.js';
import { widgetEncounterRecords } from './0006-widget-encounter-records.js';
import { encounterNoteTemplate } from './0007-encounter-note-template.js';
import { noteFacts } from './0008-note-facts.js';
import { clinicianProfileDocumentRevisions } from './0009-clinician-profile-document-revisions.js';
import { realtimeResumeInContext } from './0010-realtime-resume-in-context.js';
import { transcriptReview } from './0011-transcript-review.js';
import { realtimeCepstralMeans } from './0012-realtime-cepstral-means.js';
import { auditLog } from './0013-audit-log.js';
import { exactPartnerOrigins } from './0014-exact-partner-origins.js';
import { consoleAccounts } from './0015-console.js';
import { idempotencyKeys } from './0016-idempotency-keys.js';
import { asyncNotes } from './0017-async-notes.js';

/**
 * Migrations in the order they apply. Names sort lexically, so they carry a zero-padded number;
 * a released migration is never edited, only followed by a new one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-widget': widget,
  '0003-notes': notes,
  '0004-realtime': realtime,
  '0005-realtime-retention': realtimeRetention,
  '0006-widget-encounter-records': widgetEncounterRecords,
  '0007-encounter-note-template': encounterNoteTemplate,
  '0008-note-facts': noteFacts,
  '0009-clinician-profile-document-revisions': clinicianProfileDocumentRevisions,
  '0010-realtime-resume-in-context': realtimeResumeInContext,
  '0011-transcript-review': transcriptReview,
  '0012-realtime-cepstral-means': realtimeCepstralMeans,
  '0013-audit-log': auditLog,
  '0014-exact-partner-origins': exactPartnerOrigins,
  '0015-console': consoleAccounts,
  '0016-idempotency-keys': idempotencyKeys,
  '0017-async-notes': asyncNotes,
};

/** Every migration's name, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
