import { mountWidget, type WidgetEmbedError } from '@chartwright/embed';
import type { SetPatientContextRequest } from '@chartwright/protocol';

import type { FiledDocument, FiledNote, Visit } from '../server/chart-store.js';
import { api, type ChartData } from './api.js';
import { ageFrom, el, time } from './dom.js';

/*
 * The demo EMR's page: a patient list and, for the open chart, the clinical summary, the scribe
 * (the Chartwright widget, mounted with @chartwright/embed) and what the scribe sent to the chart.
 */

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html has no #${id}`);
  return element;
}

const main = byId('main');

function patientIdFromPath(): string | null {
  const match = /^\/patients\/([^/]+)$/.exec(location.pathname);
  return match === null ? null : decodeURIComponent(match[1] ?? '');
}

function renderPatientList(patients: SetPatientContextRequest[], openId: string | null): void {
  const list = byId('patient-list');
  list.replaceChildren(
    ...patients.map(({ patient }) =>
      el(
        'li',
        {},
        el(
          'a',
          {
            href: `/patients/${encodeURIComponent(patient.id)}`,
            'aria-current': patient.id === openId ? 'page' : undefined,
          },
          patient.name,
        ),
      ),
    ),
  );
}

function renderHome(patients: SetPatientContextRequest[]): void {
  main.replaceChildren(
    el('h1', {}, 'Today’s patients'),
    el(
      'p',
      { class: 'muted' },
      'Open a chart to start the scribe. Everything here is synthetic; notes and documents the scribe sends are kept in this demo’s memory.',
    ),
    el(
      'ul',
      {},
      ...patients.map(({ patient, context, noteConfig }) =>
        el(
          'li',
          {},
          el('a', { href: `/patients/${encodeURIComponent(patient.id)}` }, patient.name),
          ` — ${context?.chiefComplaint ?? 'no reason given'}`,
          noteConfig === undefined ? '' : ' (custom note sections)',
        ),
      ),
    ),
  );
}

const card = (title: string, ...children: (Node | string)[]) =>
  el('section', { class: 'card', 'aria-label': title }, el('h2', {}, title), ...children);

const listOr = (items: string[], empty: string) =>
  items.length === 0 ? el('p', { class: 'muted' }, empty) : el('ul', {}, ...items.map((item) => el('li', {}, item)));

function clinicalSummary({ context, appointment }: ChartData): HTMLElement {
  const allergies = context?.allergies ?? [];
  return el(
    'div',
    {},
    card(
      'Reason for visit',
      el('p', {}, appointment?.reason ?? context?.chiefComplaint ?? '—'),
      el('p', { class: 'muted' }, context?.medicalHistory ?? ''),
    ),
    card(
      'Allergies',
      allergies.length === 0
        ? el('p', {}, 'No known allergies')
        : el(
            'ul',
            {},
            ...allergies.map((allergy) =>
              el(
                'li',
                { class: 'allergy' },
                [allergy.name, allergy.severity, allergy.reaction].filter(Boolean).join(' · '),
              ),
            ),
          ),
    ),
    card(
      'Medications',
      listOr(
        (context?.medications ?? []).map((medication) =>
          [
            medication.name,
            medication.dosage,
            medication.frequency,
            medication.status === 'discontinued' ? '(stopped)' : '',
          ]
            .filter(Boolean)
            .join(' '),
        ),
        'None',
      ),
    ),
    card(
      'Problems',
      listOr(
        (context?.diagnoses ?? []).map((diagnosis) =>
          [diagnosis.name, diagnosis.code === undefined ? '' : `(${diagnosis.code})`].filter(Boolean).join(' '),
        ),
        'None recorded',
      ),
    ),
    card(
      'Recent labs',
      listOr(
        (context?.labResults ?? []).map((lab) =>
          [lab.name, lab.value, lab.unit, lab.normalRange === undefined ? '' : `(ref ${lab.normalRange})`, lab.date]
            .filter(Boolean)
            .join(' '),
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

function renderNote(data: ChartData, note: FiledNote): HTMLElement {
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

function renderDocument(document: FiledDocument): HTMLElement {
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

function renderVisit(visit: Visit): HTMLElement {
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

async function renderChart(patientId: string, widgetUrl: string): Promise<void> {
  const data = await api.chart(patientId);
  const { patient } = data;
  document.title = `${patient.name} — Northwind demo EMR`;
  const age = ageFrom(patient.dob);

  const notes = el('div', {});
  const documents = el('div', {});
  const visit = el('div', {}, renderVisit(data.chart.visit));
  const problems = el('div', { role: 'alert', class: 'error' });
  const log = el('ol', { class: 'log', role: 'log', 'aria-label': 'Widget messages' });
  const showFiled = () => {
    notes.replaceChildren(
      ...(data.chart.notes.length === 0
        ? [el('p', { class: 'muted' }, 'Nothing yet: send a note from the scribe.')]
        : data.chart.notes.map((note) => renderNote(data, note))),
    );
    documents.replaceChildren(
      ...(data.chart.documents.length === 0
        ? [el('p', { class: 'muted' }, 'Nothing yet: send a letter or form from the scribe.')]
        : data.chart.documents.map(renderDocument)),
    );
  };
  const report = (error: unknown) => {
    const { code, message } = error as Partial<WidgetEmbedError>;
    problems.replaceChildren(el('p', {}, `${code ?? 'error'}: ${message ?? String(error)}`));
  };
  showFiled();

  const frame = el('div', { class: 'frame' });
  const context = el('textarea', { id: 'extra-context', name: 'context' });
  const scribe = el(
    'section',
    { class: 'scribe', 'aria-label': 'Scribe' },
    frame,
    el(
      'div',
      { class: 'controls' },
      el('button', { type: 'button', onclick: () => widget.close() }, 'Close scribe'),
      el(
        'button',
        {
          type: 'button',
          onclick: () => {
            void api.startVisit(patient.id).then(() => location.reload(), report);
          },
        },
        'Start a new visit',
      ),
    ),
    el(
      'form',
      {
        class: 'card',
        onsubmit: (event) => {
          event.preventDefault();
          if (context.value.trim() === '') return;
          widget.setContext(context.value.trim(), 'append');
          context.value = '';
        },
      },
      el('label', { for: 'extra-context' }, 'Context for the note'),
      context,
      el('button', { type: 'submit' }, 'Send to scribe'),
    ),
  );

  main.replaceChildren(
    el(
      'div',
      { class: 'chart' },
      el(
        'div',
        { class: 'banner' },
        el('h1', {}, patient.name),
        el(
          'span',
          { class: 'facts' },
          [
            patient.dob === undefined ? '' : `Born ${patient.dob}${age === null ? '' : ` (${age} y)`}`,
            patient.gender ?? '',
            patient.healthCardNumber === undefined ? '' : `Health card ${patient.healthCardNumber}`,
            patient.id,
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
      el(
        'div',
        {},
        problems,
        clinicalSummary(data),
        card(
          'Visit',
          visit,
          el(
            'p',
            { class: 'muted' },
            data.noteConfig === undefined
              ? 'Note format: SOAP (the service default).'
              : `Note format: ${data.noteConfig.sections.map((section) => `${section.label} → ${section.key}`).join(', ')}.`,
          ),
        ),
        card('Notes in chart', notes),
        card('Documents in chart', documents),
        card('Widget messages', log),
      ),
      scribe,
    ),
  );

  const widget = mountWidget({
    container: frame,
    widgetUrl,
    getToken: () => api.widgetToken(patient.id),
    patientContext: {
      patient,
      ...(data.context === undefined ? {} : { context: data.context }),
      ...(data.appointment === undefined ? {} : { appointment: data.appointment }),
    },
    ...(data.noteConfig === undefined ? {} : { noteConfig: data.noteConfig }),
    onMessage: (message) => log.prepend(el('li', {}, `${time(new Date().toISOString())} ${message.type}`)),
    onSessionStarted: (message) => {
      api.sessionStarted(patient.id, message).then((current) => visit.replaceChildren(renderVisit(current)), report);
    },
    onNote: (message) => {
      api.fileNote(patient.id, message).then((filed) => {
        data.chart.notes.unshift(filed);
        showFiled();
      }, report);
    },
    onDocument: (message) => {
      api.fileDocument(patient.id, message).then((filed) => {
        data.chart.documents.unshift(filed);
        showFiled();
      }, report);
    },
    onError: report,
  });
}

async function start(): Promise<void> {
  const [session, { patients }] = await Promise.all([api.session(), api.patients()]);
  byId('clinician').textContent = session.clinician.name;
  const patientId = patientIdFromPath();
  renderPatientList(patients, patientId);
  if (patientId === null) renderHome(patients);
  else await renderChart(patientId, session.widgetUrl);
}

start().catch((error: unknown) => {
  main.replaceChildren(
    el(
      'p',
      { class: 'error', role: 'alert' },
      `The chart could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
});
