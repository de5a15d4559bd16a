import type { PatientSummary } from '../controller/patient-summary.js';

export function PatientHeader({ patient }: { patient: PatientSummary }) {
  const facts = [patient.age, patient.gender, patient.dob === null ? null : `born ${patient.dob}`].filter(
    (fact): fact is string => fact !== null,
  );
  return (
    <section class="patient" aria-labelledby="patient-name">
      <h2 id="patient-name" class="patient-name">
        {patient.name}
      </h2>
      {facts.length > 0 && <p class="muted">{facts.join(' · ')}</p>}
      <dl class="patient-lists">
        <div>
          <dt>Allergies</dt>
          <dd>
            {patient.allergies.length === 0 ? (
              <span class="muted">None recorded</span>
            ) : (
              <ul class="chips chips-alert">
                {patient.allergies.map((allergy) => (
                  <li key={allergy}>{allergy}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>Active medications</dt>
          <dd>
            {patient.medications.length === 0 ? (
              <span class="muted">None recorded</span>
            ) : (
              <ul class="chips">
                {patient.medications.map((medication) => (
                  <li key={medication}>{medication}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}
