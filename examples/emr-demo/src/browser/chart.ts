import type { SetPatientContextRequest } from '@chartwright/protocol';

import { api } from './api.js';
import { renderChart } from './chart-page.js';
import { el } from './dom.js';

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

async function start(): Promise<void> {
  const [session, { patients }] = await Promise.all([api.session(), api.patients()]);
  byId('clinician').textContent = session.clinician.name;
  const patientId = patientIdFromPath();
  renderPatientList(patients, patientId);
  if (patientId === null) renderHome(patients);
  else await renderChart(main, patientId, session.widgetUrl);
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
