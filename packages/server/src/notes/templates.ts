import type { Template } from '@chartwright/protocol';

/**
 * The curated note templates: the single registry the REST API lists and note generation uses.
 * A section's description is the guidance an engine follows about what belongs in it. Bump a
 * template's version whenever its sections or guidance change, so stored notes stay reproducible.
 */
export const CURATED_TEMPLATES: readonly Template[] = deepFreeze([
  {
    id: 'soap',
    name: 'SOAP note',
    description: 'The classic four-part visit note: Subjective, Objective, Assessment, Plan.',
    version: 1,
    sections: [
      {
        key: 'subjective',
        label: 'Subjective',
        description:
          'What the patient reports: chief complaint, history of present illness, relevant past history, current medications, allergies and review of systems.',
      },
      {
        key: 'objective',
        label: 'Objective',
        description: 'What was observed or measured: vital signs, physical examination findings, and test results.',
      },
      {
        key: 'assessment',
        label: 'Assessment',
        description: 'The clinician’s impression: diagnoses or differential and how each problem is evolving.',
      },
      {
        key: 'plan',
        label: 'Plan',
        description:
          'What will be done: tests ordered, treatments and prescriptions, referrals, patient education and follow-up.',
      },
    ],
  },
  {
    id: 'history_and_physical',
    name: 'History & Physical',
    description: 'A comprehensive initial evaluation, as written at a new-patient visit or admission.',
    version: 1,
    sections: [
      { key: 'chief_complaint', label: 'Chief Complaint', description: 'The main reason for the visit, in brief.' },
      {
        key: 'history_of_present_illness',
        label: 'History of Present Illness',
        description: 'Onset, location, duration, character, severity, modifying factors and course of the complaint.',
      },
      {
        key: 'past_medical_history',
        label: 'Past Medical History',
        description: 'Prior illnesses, chronic conditions, surgeries and hospitalizations.',
      },
      { key: 'medications', label: 'Medications', description: 'Current medications with dose and frequency.' },
      { key: 'allergies', label: 'Allergies', description: 'Drug and other allergies with the reaction.' },
      { key: 'family_history', label: 'Family History', description: 'Relevant illnesses in blood relatives.' },
      {
        key: 'social_history',
        label: 'Social History',
        description: 'Tobacco, alcohol and drug use, occupation, living situation and activity.',
      },
      {
        key: 'review_of_systems',
        label: 'Review of Systems',
        description: 'Symptoms the patient reports or denies, system by system.',
      },
      {
        key: 'physical_exam',
        label: 'Physical Exam',
        description: 'Vital signs and examination findings by body system.',
      },
      { key: 'results', label: 'Results', description: 'Laboratory, imaging and other test results reviewed.' },
      { key: 'assessment', label: 'Assessment', description: 'Diagnoses or differential diagnosis.' },
      { key: 'plan', label: 'Plan', description: 'Tests, treatments, referrals, education and follow-up.' },
    ],
  },
  {
    id: 'progress_note',
    name: 'Progress note',
    description: 'A follow-up visit focused on what changed since the last encounter.',
    version: 1,
    sections: [
      {
        key: 'interval_history',
        label: 'Interval History',
        description: 'What happened since the last visit: symptoms, response to treatment, new problems.',
      },
      {
        key: 'medications',
        label: 'Medications',
        description: 'Current medications and any changes, adherence and side effects.',
      },
      { key: 'physical_exam', label: 'Physical Exam', description: 'Vital signs and today’s examination findings.' },
      { key: 'results', label: 'Results', description: 'New laboratory, imaging and other results.' },
      { key: 'assessment', label: 'Assessment', description: 'Status of each problem addressed today.' },
      { key: 'plan', label: 'Plan', description: 'Changes to treatment, tests ordered and follow-up.' },
    ],
  },
  {
    id: 'discharge_summary',
    name: 'Discharge summary',
    description: 'Summary of a hospital stay for the patient’s next clinicians.',
    version: 1,
    sections: [
      { key: 'reason_for_admission', label: 'Reason for Admission', description: 'Why the patient was admitted.' },
      {
        key: 'hospital_course',
        label: 'Hospital Course',
        description: 'What happened during the stay, problem by problem.',
      },
      { key: 'procedures', label: 'Procedures', description: 'Procedures and operations performed.' },
      {
        key: 'discharge_diagnoses',
        label: 'Discharge Diagnoses',
        description: 'Principal and secondary diagnoses at discharge.',
      },
      {
        key: 'discharge_medications',
        label: 'Discharge Medications',
        description: 'Medications at discharge, marking new, changed and stopped ones.',
      },
      {
        key: 'condition_at_discharge',
        label: 'Condition at Discharge',
        description: 'Clinical and functional state when leaving.',
      },
      {
        key: 'follow_up',
        label: 'Follow-up',
        description: 'Appointments, pending results and who is responsible for them.',
      },
      {
        key: 'patient_instructions',
        label: 'Patient Instructions',
        description: 'Activity, diet, warning signs and when to seek care.',
      },
    ],
  },
  {
    id: 'referral_letter',
    name: 'Referral letter',
    description: 'A letter asking another clinician or service to see the patient.',
    version: 1,
    sections: [
      {
        key: 'reason_for_referral',
        label: 'Reason for Referral',
        description: 'What the receiving clinician is asked to do, and how urgently.',
      },
      {
        key: 'history',
        label: 'History',
        description: 'The relevant history of the problem and pertinent past history.',
      },
      {
        key: 'findings',
        label: 'Relevant Findings',
        description: 'Examination findings and results that bear on the referral.',
      },
      { key: 'medications', label: 'Current Medications', description: 'Current medications with doses.' },
      { key: 'allergies', label: 'Allergies', description: 'Known allergies with reactions.' },
      {
        key: 'questions',
        label: 'Specific Questions',
        description: 'What the referring clinician wants answered.',
      },
    ],
  },
]);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The list as the API sends it, serialized once: the templates never change while the service runs. */
export const CURATED_TEMPLATES_JSON = JSON.stringify(CURATED_TEMPLATES);

export function findCuratedTemplate(id: string): Template | undefined {
  return CURATED_TEMPLATES.find((template) => template.id === id);
}
