import type { StoredPatientContext } from '@chartwright/protocol';

/** What the patient header shows: who, how old, what they react to, what they take. */
export interface PatientSummary {
  id: string;
  name: string;
  /** "42 years", "8 months", "3 weeks"; null without a usable date of birth. */
  age: string | null;
  dob: string | null;
  gender: string | null;
  allergies: string[];
  /** Medications not marked discontinued. */
  medications: string[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/**
 * Age on `today` (a local calendar date) from a `YYYY-MM-DD` date of birth (a date-time is read by
 * its date part). Years from 2 on, months under 2 years, weeks under 2 months; null for a date that
 * is not one, or in the future.
 */
export function ageOn(dob: string, today: Date): string | null {
  const match = DATE.exec(dob.trim());
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const born = new Date(year, month - 1, day);
  if (born.getFullYear() !== year || born.getMonth() !== month - 1 || born.getDate() !== day) return null;
  const now = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  if (born > now) return null;
  let months = (now.getFullYear() - year) * 12 + (now.getMonth() - (month - 1));
  if (now.getDate() < day) months -= 1;
  if (months >= 24) return plural(Math.floor(months / 12), 'year');
  if (months >= 2) return plural(months, 'month');
  const days = Math.round((now.getTime() - born.getTime()) / 86_400_000);
  return days >= 14 ? plural(Math.floor(days / 7), 'week') : plural(days, 'day');
}

/** The header's view of a validated PATIENT_CONTEXT. */
export function summarizePatient(context: StoredPatientContext, today: Date): PatientSummary {
  const { patient } = context;
  const allergies = (context.context?.allergies ?? []).map((allergy) =>
    [allergy.name, allergy.severity, allergy.reaction].filter((part) => part !== undefined && part !== '').join(' · '),
  );
  const medications = (context.context?.medications ?? [])
    .filter((medication) => medication.status !== 'discontinued')
    .map((medication) =>
      [medication.name, medication.dosage, medication.frequency]
        .filter((part) => part !== undefined && part !== '')
        .join(' '),
    );
  return {
    id: patient.id,
    name: patient.name,
    age: patient.dob === undefined ? null : ageOn(patient.dob, today),
    dob: patient.dob ?? null,
    gender: patient.gender ?? null,
    allergies,
    medications,
  };
}
