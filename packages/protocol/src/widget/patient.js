import { z } from 'zod';
import { emailOrEmpty, normalizedEnum, trimmedText } from './fields.js';
import { parsePersonName } from './person-name.js';
export const WIDGET_GENDERS = Object.freeze(['male', 'female', 'other', 'unknown']);
const patientFieldsSchema = z.object({
  id: trimmedText().describe('The EMR’s stable patient identifier, echoed on PUSH_NOTE and PUSH_DOCUMENT.'),
  name: trimmedText().describe('Full name.'),
  // Given names are trimmed like `name`, but an empty one is kept: the EMR said so explicitly.
  firstName: z.string().trim().optional().describe('Parsed from `name` when omitted.'),
  lastName: z.string().trim().optional().describe('Parsed from `name` when omitted.'),
  dob: z.string().optional().describe('Recommended format YYYY-MM-DD.'),
  gender: normalizedEnum(WIDGET_GENDERS).optional(),
  healthCardNumber: z.string().optional().describe('Provincial health number.'),
  email: emailOrEmpty().optional(),
  phone: z.string().optional(),
});
function withNameParts(patient) {
  const parsed = parsePersonName(patient.name);
  return {
    ...patient,
    firstName: patient.firstName ?? parsed.firstName,
    lastName: patient.lastName ?? parsed.lastName,
  };
}
// The shape after normalization, stated as a schema so that JSON Schema (io: 'output') can describe
// the result of the transform below instead of giving up on it.
const normalizedPatientSchema = patientFieldsSchema.extend({
  firstName: z.string(),
  lastName: z.string(),
  gender: z.enum(WIDGET_GENDERS).optional(),
});
/**
 * The patient of a PATIENT_CONTEXT. The output always carries `firstName` and `lastName`: an omitted
 * one is parsed from `name` (see person-name.ts), a given one is never overridden.
 */
export const widgetPatientSchema = patientFieldsSchema.transform(withNameParts).pipe(normalizedPatientSchema);
//# sourceMappingURL=patient.js.map
