import { z } from 'zod';
import { freeFormObject, normalizedEnum, trimmedText } from './fields.js';
export const WIDGET_ALLERGY_SEVERITIES = Object.freeze(['mild', 'moderate', 'severe']);
export const WIDGET_MEDICATION_STATUSES = Object.freeze(['active', 'discontinued']);
export const WIDGET_DIAGNOSIS_STATUSES = Object.freeze(['active', 'resolved']);
export const widgetAllergySchema = z.object({
  name: trimmedText().describe('Allergen name.'),
  severity: normalizedEnum(WIDGET_ALLERGY_SEVERITIES).optional(),
  reaction: z.string().optional(),
});
export const widgetMedicationSchema = z.object({
  name: trimmedText().describe('Medication name.'),
  dosage: z.string().optional(),
  frequency: z.string().optional(),
  startDate: z.string().optional(),
  status: normalizedEnum(WIDGET_MEDICATION_STATUSES).optional(),
});
export const widgetDiagnosisSchema = z.object({
  name: trimmedText().describe('Diagnosis description.'),
  code: z.string().optional().describe('Code value, e.g. an ICD-10 code.'),
  codeSystem: z.string().optional(),
  date: z.string().optional(),
  status: normalizedEnum(WIDGET_DIAGNOSIS_STATUSES).optional(),
});
export const widgetLabResultSchema = z.object({
  name: trimmedText().describe('Test name.'),
  value: z.string().optional(),
  unit: z.string().optional(),
  date: z.string().optional(),
  normalRange: z.string().optional(),
});
/** PATIENT_CONTEXT.context: every field optional. */
export const widgetMedicalContextSchema = z.object({
  allergies: z.array(widgetAllergySchema).optional(),
  medications: z.array(widgetMedicationSchema).optional(),
  diagnoses: z.array(widgetDiagnosisSchema).optional(),
  labResults: z.array(widgetLabResultSchema).optional(),
  chiefComplaint: z.string().optional(),
  medicalHistory: z.string().optional(),
  customData: freeFormObject().optional().describe('Arbitrary key/value data, passed through as given.'),
});
//# sourceMappingURL=medical-context.js.map
