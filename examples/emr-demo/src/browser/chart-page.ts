import { mountWidget, type WidgetEmbedError, type WidgetHandle } from '@chartwright/embed';

import { api, type ChartData } from './api.js';
import { card, clinicalSummary, renderDocument, renderNote, renderVisit } from './chart-records.js';
import { ageFrom, el, time } from './dom.js';

/* The open chart: the patient banner, the clinical summary, what the scribe filed, and the scribe. */

/** The parts of the chart the scribe's messages change. */
interface ChartView {
  notes: HTMLElement;
  documents: HTMLElement;
  visit: HTMLElement;
  problems: HTMLElement;
  log: HTMLElement;
  showFiled: () => void;
  report: (error: unknown) => void;
}

function chartView(data: ChartData): ChartView {
  const view: ChartView = {
    notes: el('div', {}),
    documents: el('div', {}),
    visit: el('div', {}, renderVisit(data.chart.visit)),
    problems: el('div', { role: 'alert', class: 'error' }),
    log: el('ol', { class: 'log', role: 'log', 'aria-label': 'Widget messages' }),
    showFiled: () => {
      view.notes.replaceChildren(
        ...(data.chart.notes.length === 0
          ? [el('p', { class: 'muted' }, 'Nothing yet: send a note from the scribe.')]
          : data.chart.notes.map((note) => renderNote(data, note))),
      );
      view.documents.replaceChildren(
        ...(data.chart.documents.length === 0
          ? [el('p', { class: 'muted' }, 'Nothing yet: send a letter or form from the scribe.')]
          : data.chart.documents.map(renderDocument)),
      );
    },
    report: (error) => {
      const { code, message } = error as Partial<WidgetEmbedError>;
      view.problems.replaceChildren(el('p', {}, `${code ?? 'error'}: ${message ?? String(error)}`));
    },
  };
  view.showFiled();
  return view;
}

/** The scribe column: the widget's frame, and the EMR's own controls for it. */
function scribePanel(
  patientId: string,
  widget: () => WidgetHandle,
  report: (error: unknown) => void,
): { element: HTMLElement; frame: HTMLElement } {
  const frame = el('div', { class: 'frame' });
  const context = el('textarea', { id: 'extra-context', name: 'context' });
  const startVisit = () => {
    void api.startVisit(patientId).then(() => location.reload(), report);
  };
  const sendContext = (event: Event) => {
    event.preventDefault();
    if (context.value.trim() === '') return;
    widget().setContext(context.value.trim(), 'append');
    context.value = '';
  };
  const element = el(
    'section',
    { class: 'scribe', 'aria-label': 'Scribe' },
    frame,
    el(
      'div',
      { class: 'controls' },
      el('button', { type: 'button', onclick: () => widget().close() }, 'Close scribe'),
      el('button', { type: 'button', onclick: startVisit }, 'Start a new visit'),
    ),
    el(
      'form',
      { class: 'card', onsubmit: sendContext },
      el('label', { for: 'extra-context' }, 'Context for the note'),
      context,
      el('button', { type: 'submit' }, 'Send to scribe'),
    ),
  );
  return { element, frame };
}

function banner({ patient }: ChartData): HTMLElement {
  const age = ageFrom(patient.dob);
  const facts = [
    patient.dob === undefined ? '' : `Born ${patient.dob}${age === null ? '' : ` (${age} y)`}`,
    patient.gender ?? '',
    patient.healthCardNumber === undefined ? '' : `Health card ${patient.healthCardNumber}`,
    patient.id,
  ];
  return el(
    'div',
    { class: 'banner' },
    el('h1', {}, patient.name),
    el('span', { class: 'facts' }, facts.filter(Boolean).join(' · ')),
  );
}

function records(data: ChartData, view: ChartView): HTMLElement {
  const format =
    data.noteConfig === undefined
      ? 'Note format: SOAP (the service default).'
      : `Note format: ${data.noteConfig.sections.map((section) => `${section.label} → ${section.key}`).join(', ')}.`;
  return el(
    'div',
    {},
    view.problems,
    clinicalSummary(data),
    card('Visit', view.visit, el('p', { class: 'muted' }, format)),
    card('Notes in chart', view.notes),
    card('Documents in chart', view.documents),
    card('Widget messages', view.log),
  );
}

/** The widget, given the chart's patient, and filing what it sends. */
function mountScribe(data: ChartData, frame: HTMLElement, widgetUrl: string, view: ChartView): WidgetHandle {
  const { patient } = data;
  return mountWidget({
    container: frame,
    widgetUrl,
    getToken: () => api.widgetToken(patient.id),
    patientContext: {
      patient,
      ...(data.context === undefined ? {} : { context: data.context }),
      ...(data.appointment === undefined ? {} : { appointment: data.appointment }),
    },
    ...(data.noteConfig === undefined ? {} : { noteConfig: data.noteConfig }),
    onMessage: (message) => view.log.prepend(el('li', {}, `${time(new Date().toISOString())} ${message.type}`)),
    onSessionStarted: (message) => {
      api
        .sessionStarted(patient.id, message)
        .then((current) => view.visit.replaceChildren(renderVisit(current)), view.report);
    },
    onNote: (message) => {
      api.fileNote(patient.id, message).then((filed) => {
        data.chart.notes.unshift(filed);
        view.showFiled();
      }, view.report);
    },
    onDocument: (message) => {
      api.fileDocument(patient.id, message).then((filed) => {
        data.chart.documents.unshift(filed);
        view.showFiled();
      }, view.report);
    },
    onError: view.report,
  });
}

export async function renderChart(main: HTMLElement, patientId: string, widgetUrl: string): Promise<void> {
  const data = await api.chart(patientId);
  document.title = `${data.patient.name} — Northwind demo EMR`;
  const view = chartView(data);
  // The scribe's controls reach the widget, which mounts once they are on the page.
  const mounted: { widget?: WidgetHandle } = {};
  const scribe = scribePanel(
    data.patient.id,
    () => {
      if (mounted.widget === undefined) throw new Error('the scribe is not mounted yet');
      return mounted.widget;
    },
    view.report,
  );
  main.replaceChildren(el('div', { class: 'chart' }, banner(data), records(data, view), scribe.element));
  mounted.widget = mountScribe(data, scribe.frame, widgetUrl, view);
}
