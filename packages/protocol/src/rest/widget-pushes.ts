import { z } from 'zod';

import { componentRegistry } from './registry.js';

/**
 * POST …/notes/{noteId}/pushes and …/documents/{documentId}/pushes: the widget records that it is
 * sending this revision into the chart (PUSH_NOTE, PUSH_DOCUMENT) before it posts the message, so
 * the audit log holds every disclosure to the EMR.
 */
export const recordWidgetPushRequestSchema = z
  .strictObject({
    revision: z
      .int()
      .min(1)
      .describe('The revision being sent. When it is no longer current, 409 revision_conflict and nothing is sent.'),
  })
  .register(componentRegistry, { id: 'RecordWidgetPushRequest' });
export type RecordWidgetPushRequest = z.input<typeof recordWidgetPushRequestSchema>;
