import { z } from 'zod';

import { freeFormObject, normalizedEnum, trimmedText } from './fields.js';

export const WIDGET_ALLERGY_SEVERITIES = Object.freeze(['mild', 'moderate', 'severe'] as const);
export const WIDGET_MEDICATION_STATUSES = Object.freeze(['active', 'discontinued'] as const);
export const WIDGET_DIAGNOSIS_STATUSES = Object.freeze(['active', 'resolved'] as const);

export const widgetAllergySchema = z.object({
  name: trimmedText().describe('Allergen name.'),
  severity: normalizedEnum(WIDGET_ALLERGY_SEVERITIES).optional(),
  reaction: z.string().optional(),
});
export type WidgetAllergy = z.output<typeof widgetAllergySchema>;

export const widgetMedicationSchema = z.object({
  name: trimmedText().describe('Medication name.'),
  dosage: z.string().optional(),
  frequency: z.string().optional(),
  startDate: z.string().optional(),
  status: normalizedEnum(WIDGET_MEDICATION_STATUSES).optional(),
});
export type WidgetMedication = z.output<typeof widgetMedicationSchema>;

export const widgetDiagnosisSchema = z.object({
  name: trimmedText().describe('Diagnosis description.'),
  code: z.string().optional().describe('Code value, e.g. an ICD-10 code.'),
  codeSystem: z.string().optional(),
  date: z.string().optional(),
  status: normalizedEnum(WIDGET_DIAGNOSIS_STATUSES).optional(),
});
export type WidgetDiagnosis = z.output<typeof widgetDiagnosisSchema>;

export const widgetLabResultSchema = z.object({
  name: trimmedText().describe('Test name.'),
  value: z.string().optional(),
  unit: z.string().optional(),
  date: z.string().optional(),
  normalRange: z.string().optional(),
});
export type WidgetLabResult = z.output<typeof widgetLabResultSchema>;

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
export type WidgetMedicalContextInput = z.input<typeof widgetMedicalContextSchema>;
export type WidgetMedicalContext = z.output<typeof widgetMedicalContextSchema>;
