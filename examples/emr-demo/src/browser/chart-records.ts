import type { FiledDocument, FiledNote, Visit } from '../server/chart-store.js';
import type { ChartData } from './api.js';
import { el, time } from './dom.js';

/* What the open chart shows: the clinical summary, and the notes and documents the scribe filed. */

export const card = (title: string, ...children: (Node | string)[]) =>
  el('section', { class: 'card', 'aria-label': title }, el('h2', {}, title), ...children);

const listOr = (items: string[], empty: string) =>
  items.length === 0 ? el('p', { class: 'muted' }, empty) : el('ul', {}, ...items.map((item) => el('li', {}, item)));

const joined = (parts: (string | undefined)[], separator = ' ') => parts.filter(Boolean).join(separator);

function allergiesCard(allergies: NonNullable<ChartData['context']>['allergies'] = []): HTMLElement {
  return card(
    'Allergies',
    allergies.length === 0
      ? el('p', {}, 'No known allergies')
      : el(
          'ul',
          {},
          ...allergies.map((allergy) =>
            el('li', { class: 'allergy' }, joined([allergy.name, allergy.severity, allergy.reaction], ' · ')),
          ),
        ),
  );
}

/** The chart's own record of the patient: what the EMR sends the scribe as PATIENT_CONTEXT. */
export function clinicalSummary({ context, appointment }: ChartData): HTMLElement {
  return el(
    'div',
    {},
    card(
      'Reason for visit',
      el('p', {}, appointment?.reason ?? context?.chiefComplaint ?? '—'),
      el('p', { class: 'muted' }, context?.medicalHistory ?? ''),
    ),
    allergiesCard(context?.allergies),
    card(
      'Medications',
      listOr(
        (context?.medications ?? []).map((medication) =>
          joined([
            medication.name,
            medication.dosage,
            medication.frequency,
            medication.status === 'discontinued' ? '(stopped)' : '',
          ]),
        ),
        'None',
      ),
    ),
    card(
      'Problems',
      listOr(
        (context?.diagnoses ?? []).map((diagnosis) =>
          joined([diagnosis.name, diagnosis.code === undefined ? '' : `(${diagnosis.code})`]),
        ),
        'None recorded',
      ),
    ),
    card(
      'Recent labs',
      listOr(
        (context?.labResults ?? []).map((lab) =>
          joined([
            lab.name,
            lab.value,
            lab.unit,
            lab.normalRange === undefined ? '' : `(ref ${lab.normalRange})`,
            lab.date,
          ]),
        ),
        'None',
      ),
    ),
  );
}

/** The heading the EMR files a section under: its noteConfig label, else the key as a word (SOAP). */
function sectionLabel(data: ChartData, key: string): string {
  const configured = data.noteConfig?.sections.find((section) => section.key === key)?.label;
  return configured ?? key.charAt(0).toUpperCase() + key.slice(1);
}

export function renderNote(data: ChartData, note: FiledNote): HTMLElement {
  const sections = Object.entries(note.sections ?? {});
  return el(
    'article',
    { class: 'filed', 'aria-label': `Note received ${time(note.receivedAt)}` },
    el('h3', {}, `Note · ${time(note.receivedAt)}`),
    el('p', { class: 'muted' }, `Visit ${note.emrSessionId} · scribe session ${note.sessionId}`),
    sections.length === 0
      ? el('pre', {}, note.note)
      : el(
          'dl',
          { class: 'sections' },
          ...sections.flatMap(([key, text]) => [
            el('dt', { 'data-section-key': key }, sectionLabel(data, key)),
            el('dd', {}, text === '' ? '—' : text),
          ]),
        ),
    el('details', {}, el('summary', {}, 'Full note text'), el('pre', {}, note.note)),
    note.transcript === null
      ? null
      : el('details', {}, el('summary', {}, 'Transcript'), el('pre', {}, note.transcript)),
  );
}

export function renderDocument(document: FiledDocument): HTMLElement {
  return el(
    'article',
    { class: 'filed', 'aria-label': `${document.title} received ${time(document.receivedAt)}` },
    el('h3', {}, `${document.title} · ${time(document.receivedAt)}`),
    el('p', { class: 'muted' }, `${document.documentType} · scribe session ${document.sessionId}`),
    document.pdfPath === null
      ? null
      : el('p', {}, el('a', { href: document.pdfPath, target: '_blank', rel: 'noopener' }, 'Open PDF (chart copy)')),
    document.pdfUrl === null
      ? null
      : el(
          'p',
          {},
          el('a', { href: document.pdfUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Original PDF link'),
          el('span', { class: 'muted' }, ' (expires)'),
        ),
    document.pdfProblem === null ? null : el('p', { class: 'error' }, document.pdfProblem),
    el('details', {}, el('summary', {}, 'Content'), el('pre', {}, document.content)),
  );
}

export function renderVisit(visit: Visit): HTMLElement {
  const sessions = [...new Set(visit.sessionIds)];
  return el(
    'p',
    { id: 'visit' },
    `Visit ${visit.emrSessionId}`,
    el('br'),
    el(
      'span',
      { class: 'muted', id: 'scribe-session' },
      sessions.length === 0 ? 'No scribe session yet' : `Scribe session ${sessions.join(', ')}`,
    ),
  );
}
