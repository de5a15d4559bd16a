import type { SetPatientContextRequest } from '@chartwright/protocol';

/**
 * The demo's charts: synthetic people, invented for this example. Each is what the EMR sends as
 * PATIENT_CONTEXT (without `type`). James O'Connor's chart asks for a note with its own sections
 * (HPI, Exam, Impression, Plan under the keys the EMR files them by); the others get SOAP, except
 * Casey Incomplete's, whose record breaks the widget's rules on purpose: opening it shows how a
 * WIDGET_ERROR reaches the EMR, one entry per field.
 */
export const PATIENTS: readonly SetPatientContextRequest[] = Object.freeze([
  {
    patient: {
      id: 'MRN-1001',
      name: 'Maria Alvarez',
      dob: '1958-03-14',
      gender: 'female',
      healthCardNumber: '4821-337-102',
      email: 'maria.alvarez@example.com',
      phone: '555-0141',
    },
    context: {
      chiefComplaint: 'Diabetes follow-up, tired in the afternoons',
      medicalHistory: 'Type 2 diabetes since 2012. Hypertension. Cholecystectomy 2009.',
      allergies: [{ name: 'Penicillin', severity: 'severe', reaction: 'Hives and throat swelling' }],
      medications: [
        { name: 'Metformin', dosage: '1000 mg', frequency: 'twice daily', status: 'active' },
        { name: 'Lisinopril', dosage: '10 mg', frequency: 'once daily', status: 'active' },
        { name: 'Atorvastatin', dosage: '20 mg', frequency: 'at bedtime', status: 'discontinued' },
      ],
      diagnoses: [
        { name: 'Type 2 diabetes mellitus', code: 'E11.9', codeSystem: 'ICD-10', status: 'active' },
        { name: 'Essential hypertension', code: 'I10', codeSystem: 'ICD-10', status: 'active' },
      ],
      labResults: [
        { name: 'HbA1c', value: '7.4', unit: '%', normalRange: '4.0-5.6', date: '2026-02-02' },
        { name: 'eGFR', value: '78', unit: 'mL/min/1.73m2', normalRange: '>60', date: '2026-02-02' },
      ],
    },
    appointment: { id: 'APT-5501', type: 'Follow-up', duration: 20, reason: 'Diabetes review' },
  },
  {
    patient: {
      id: 'MRN-1002',
      name: "James O'Connor",
      dob: '1984-11-02',
      gender: 'male',
      healthCardNumber: '9930-118-456',
    },
    context: {
      chiefComplaint: 'Cough and wheeze for a week',
      medicalHistory: 'Asthma since childhood, well controlled until this winter.',
      allergies: [{ name: 'Cats', severity: 'moderate', reaction: 'Wheeze' }],
      medications: [
        { name: 'Salbutamol inhaler', dosage: '100 mcg', frequency: 'as needed', status: 'active' },
        { name: 'Budesonide inhaler', dosage: '200 mcg', frequency: 'twice daily', status: 'active' },
      ],
      diagnoses: [{ name: 'Asthma', code: 'J45.909', codeSystem: 'ICD-10', status: 'active' }],
    },
    appointment: { id: 'APT-5502', type: 'Same-day', duration: 15, reason: 'Cough' },
    noteConfig: {
      sections: [
        { key: 'hpi', label: 'History of present illness' },
        { key: 'exam', label: 'Exam' },
        { key: 'impression', label: 'Impression' },
        { key: 'plan', label: 'Plan' },
      ],
    },
  },
  {
    patient: {
      id: 'MRN-1003',
      name: 'Priya Natarajan',
      dob: '1992-07-21',
      gender: 'female',
      healthCardNumber: '7712-004-981',
    },
    context: {
      chiefComplaint: 'Headaches, worse this month',
      medicalHistory: 'Migraine without aura since age 16.',
      allergies: [{ name: 'Sulfonamides', severity: 'mild', reaction: 'Rash' }],
      medications: [
        { name: 'Sumatriptan', dosage: '50 mg', frequency: 'at onset, up to twice a day', status: 'active' },
      ],
      diagnoses: [{ name: 'Migraine without aura', code: 'G43.009', codeSystem: 'ICD-10', status: 'active' }],
    },
    appointment: { id: 'APT-5503', type: 'Consultation', duration: 30, reason: 'Headaches' },
  },
  {
    patient: {
      id: 'MRN-1004',
      name: 'Samuel Lee',
      dob: '1947-01-30',
      gender: 'male',
      healthCardNumber: '3301-562-777',
    },
    context: {
      chiefComplaint: 'Ankle swelling',
      medicalHistory: 'Atrial fibrillation. Chronic kidney disease stage 3a. Hip replacement 2019.',
      allergies: [],
      medications: [
        { name: 'Warfarin', dosage: '5 mg', frequency: 'once daily', status: 'active' },
        { name: 'Furosemide', dosage: '20 mg', frequency: 'once daily', status: 'active' },
        { name: 'Digoxin', dosage: '125 mcg', frequency: 'once daily', status: 'discontinued' },
      ],
      diagnoses: [
        { name: 'Atrial fibrillation', code: 'I48.91', codeSystem: 'ICD-10', status: 'active' },
        { name: 'Chronic kidney disease, stage 3a', code: 'N18.31', codeSystem: 'ICD-10', status: 'active' },
      ],
      labResults: [{ name: 'INR', value: '2.6', normalRange: '2.0-3.0', date: '2026-02-20' }],
    },
    appointment: { id: 'APT-5504', type: 'Follow-up', duration: 20, reason: 'Swollen ankles' },
  },
  {
    patient: { id: 'MRN-1099', name: 'Casey Incomplete', gender: 'unspecified', email: 'casey-at-example' },
    context: {
      chiefComplaint: 'A record the scribe refuses: see the error it sends back',
      allergies: [{ name: 'Latex', severity: 'very bad' }],
    },
    noteConfig: { sections: [{ key: '1st_visit', label: 'First visit' }] },
  },
]);

export function findPatient(id: string): SetPatientContextRequest | undefined {
  return PATIENTS.find((chart) => chart.patient.id === id);
}
