import { z } from 'zod';
import { nonNegativeNumber } from './fields.js';
/** PATIENT_CONTEXT.appointment: every field optional. */
export const widgetAppointmentSchema = z.object({
  id: z.string().optional().describe('EMR appointment identifier.'),
  dateTime: z.string().optional().describe('ISO 8601 date-time.'),
  type: z.string().optional().describe('Visit type.'),
  duration: nonNegativeNumber().optional().describe('Minutes.'),
  reason: z.string().optional(),
});
//# sourceMappingURL=appointment.js.map
