import type { EmrToWidgetMessageInput, WidgetNoteConfig, WidgetToEmrMessage } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { WidgetEmbedError } from '../errors.js';
import type { WidgetCallbacks, WidgetPatientContext } from '../types.js';
import { patientContextMessage, RELOAD_LIMIT, WidgetHost } from './widget-host.js';

const PATIENT: WidgetPatientContext = {
  patient: { id: 'MRN-7', name: 'Ann Example', dob: '1970-05-06' },
  context: { allergies: [{ name: 'Penicillin' }] },
};
const NOTE_CONFIG: WidgetNoteConfig = {
  sections: [
    { key: 'hpi', label: 'History of present illness' },
    { key: 'plan', label: 'Plan' },
  ],
};

/**
 * The iframe side of the host, as the DOM-free host protocol sees it: what was posted and which
 * tokens were loaded. The real iframe is exercised by the browser tests.
 */
class RecordingFrame {
  readonly posted: EmrToWidgetMessageInput[] = [];
  readonly loaded: string[] = [];
  post(message: EmrToWidgetMessageInput) {
    this.posted.push(message);
  }
  load(token: string) {
    this.loaded.push(token);
  }
  types() {
    return this.posted.map((message) => message.type);
  }
}

interface Setup {
  tokens?: (() => string | Promise<string>)[];
  noteConfig?: WidgetNoteConfig;
  callbacks?: WidgetCallbacks;
}

function setup({ tokens = [], noteConfig, callbacks = {} }: Setup = {}) {
  const frame = new RecordingFrame();
  const errors: WidgetEmbedError[] = [];
  let tokenCalls = 0;
  let now = 1_000_000;
  const host = new WidgetHost({
    frame,
    getToken: () => {
      const next = tokens[tokenCalls] ?? (() => `token-${tokenCalls}`);
      tokenCalls++;
      return next();
    },
    callbacks: { onError: (error) => errors.push(error), ...callbacks },
    patientContext: PATIENT,
    noteConfig,
    now: () => now,
  });
  return {
    host,
    frame,
    errors,
    tokenCalls: () => tokenCalls,
    advance: (ms: number) => (now += ms),
  };
}

/** Lets the host's token requests settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const receive = (host: WidgetHost, message: WidgetToEmrMessage) => host.receive(message);
const READY: WidgetToEmrMessage = { type: 'WIDGET_READY', version: '1.0.0' };

describe('patientContextMessage', () => {
  it('is PATIENT_CONTEXT with the patient context’s fields', () => {
    expect(patientContextMessage(PATIENT, undefined)).toEqual({ type: 'PATIENT_CONTEXT', ...PATIENT });
  });

  it('takes noteConfig given on its own over one inside the patient context', () => {
    const inside = { ...PATIENT, noteConfig: { sections: [{ key: 'soap', label: 'Subjective' }] } };
    expect(patientContextMessage(inside, NOTE_CONFIG)).toEqual({
      type: 'PATIENT_CONTEXT',
      ...PATIENT,
      noteConfig: NOTE_CONFIG,
    });
    expect(patientContextMessage(inside, undefined)).toEqual({ type: 'PATIENT_CONTEXT', ...inside });
  });
});

describe('WidgetHost', () => {
  it('loads the widget with the first token from getToken()', async () => {
    const { host, frame } = setup({ tokens: [() => Promise.resolve('first')] });
    await host.start();
    expect(frame.loaded).toEqual(['first']);
    expect(frame.posted).toEqual([]);
  });

  it('reports TOKEN_UNAVAILABLE and loads nothing when getToken() fails or gives no token', async () => {
    for (const failing of [
      () => Promise.reject(new Error('backend down')),
      () => '  ',
      () => 42 as unknown as string,
    ]) {
      const { host, frame, errors } = setup({ tokens: [failing] });
      await host.start();
      expect(frame.loaded).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ source: 'embed', code: 'TOKEN_UNAVAILABLE' });
    }
  });

  it('answers WIDGET_READY with PATIENT_CONTEXT (noteConfig included), then tells the host it is ready', () => {
    const order: string[] = [];
    const { host, frame } = setup({
      noteConfig: NOTE_CONFIG,
      callbacks: { onReady: () => order.push(`ready after ${frame.types().join(',')}`) },
    });
    receive(host, READY);
    expect(frame.posted).toEqual([{ type: 'PATIENT_CONTEXT', ...PATIENT, noteConfig: NOTE_CONFIG }]);
    expect(order).toEqual(['ready after PATIENT_CONTEXT']);
    expect(host.ready).toBe(true);
  });

  it('keeps updates and free-text context made before WIDGET_READY, and sends them once it is ready', () => {
    const { host, frame } = setup();
    const next = { patient: { id: 'MRN-8', name: 'Bea Example' } };
    host.update({ patientContext: next, noteConfig: NOTE_CONFIG });
    host.setContext('Works nights.');
    host.setContext('Lives alone.', 'append');
    expect(frame.posted).toEqual([]);

    receive(host, READY);
    expect(frame.posted).toEqual([
      { type: 'PATIENT_CONTEXT', ...next, noteConfig: NOTE_CONFIG },
      { type: 'SET_CONTEXT', context: 'Works nights.', mode: 'append' },
      { type: 'SET_CONTEXT', context: 'Lives alone.', mode: 'append' },
    ]);
  });

  it('sends changes at once when the widget is ready, and answers REQUEST_PATIENT_CONTEXT with the latest', () => {
    const { host, frame } = setup({ noteConfig: NOTE_CONFIG });
    receive(host, READY);
    host.update({ noteConfig: null });
    host.setContext('Context', 'overwrite');
    receive(host, { type: 'REQUEST_PATIENT_CONTEXT' });
    expect(frame.posted.slice(1)).toEqual([
      { type: 'PATIENT_CONTEXT', ...PATIENT },
      { type: 'SET_CONTEXT', context: 'Context', mode: 'overwrite' },
      { type: 'PATIENT_CONTEXT', ...PATIENT },
    ]);
  });

  it('answers TOKEN_EXPIRING and REQUEST_TOKEN_REFRESH arriving together with one TOKEN_REFRESH', async () => {
    const { host, frame, tokenCalls } = setup({ tokens: [() => 'initial', () => Promise.resolve('renewed')] });
    await host.start();
    receive(host, READY);
    receive(host, { type: 'TOKEN_EXPIRING', expiresInMs: 60_000 });
    receive(host, { type: 'REQUEST_TOKEN_REFRESH' });
    await settle();
    expect(tokenCalls()).toBe(2);
    expect(frame.posted.slice(1)).toEqual([{ type: 'TOKEN_REFRESH', token: 'renewed' }]);
    expect(frame.loaded).toEqual(['initial']);

    // A later request gets a token of its own.
    receive(host, { type: 'REQUEST_TOKEN_REFRESH' });
    await settle();
    expect(tokenCalls()).toBe(3);
    expect(frame.posted.slice(1)).toEqual([
      { type: 'TOKEN_REFRESH', token: 'renewed' },
      { type: 'TOKEN_REFRESH', token: 'token-3' },
    ]);
  });

  it('reports a failed refresh and sends no TOKEN_REFRESH', async () => {
    const { host, frame, errors } = setup({ tokens: [() => 'initial', () => Promise.reject(new Error('503'))] });
    await host.start();
    receive(host, READY);
    receive(host, { type: 'REQUEST_TOKEN_REFRESH' });
    await settle();
    expect(frame.types()).toEqual(['PATIENT_CONTEXT']);
    expect(errors.map((error) => error.code)).toEqual(['TOKEN_UNAVAILABLE']);
    expect((errors[0]?.cause as Error).message).toBe('503');
  });

  it('reloads the widget with a new token on TOKEN_EXPIRED, and gives the reloaded widget the same context', async () => {
    const { host, frame } = setup({ tokens: [() => 'expired', () => 'fresh'], noteConfig: NOTE_CONFIG });
    await host.start();
    receive(host, READY);
    host.setContext('First', 'append');
    host.setContext('Replaced', 'overwrite');
    host.setContext('More', 'append');
    receive(host, { type: 'TOKEN_EXPIRED' });
    await settle();
    expect(frame.loaded).toEqual(['expired', 'fresh']);
    expect(host.ready).toBe(false);

    frame.posted.length = 0;
    host.setContext('While loading');
    expect(frame.posted).toEqual([]);
    receive(host, READY);
    expect(frame.posted).toEqual([
      { type: 'PATIENT_CONTEXT', ...PATIENT, noteConfig: NOTE_CONFIG },
      { type: 'SET_CONTEXT', context: 'Replaced', mode: 'overwrite' },
      { type: 'SET_CONTEXT', context: 'More', mode: 'append' },
      { type: 'SET_CONTEXT', context: 'While loading', mode: 'append' },
    ]);
  });

  it('reloads once for TOKEN_EXPIRED messages that arrive together', async () => {
    const { host, frame, tokenCalls } = setup();
    receive(host, { type: 'TOKEN_EXPIRED' });
    receive(host, { type: 'TOKEN_EXPIRED' });
    await settle();
    expect(tokenCalls()).toBe(1);
    expect(frame.loaded).toHaveLength(1);
  });

  it(`stops reloading after ${RELOAD_LIMIT.reloads} reloads within ${RELOAD_LIMIT.windowMs} ms, and reloads again later`, async () => {
    const { host, frame, errors, advance } = setup();
    for (let reload = 0; reload < RELOAD_LIMIT.reloads; reload++) {
      receive(host, { type: 'TOKEN_EXPIRED' });
      await settle();
      advance(1000);
    }
    expect(frame.loaded).toHaveLength(RELOAD_LIMIT.reloads);
    receive(host, { type: 'TOKEN_EXPIRED' });
    await settle();
    expect(frame.loaded).toHaveLength(RELOAD_LIMIT.reloads);
    expect(errors.map((error) => error.code)).toEqual(['RELOAD_LIMIT']);

    advance(RELOAD_LIMIT.windowMs);
    receive(host, { type: 'TOKEN_EXPIRED' });
    await settle();
    expect(frame.loaded).toHaveLength(RELOAD_LIMIT.reloads + 1);
  });

  it('hands PUSH_NOTE, PUSH_DOCUMENT, SESSION_STARTED and WIDGET_ERROR to their callbacks, every message to onMessage', () => {
    const heard: string[] = [];
    const errors: WidgetEmbedError[] = [];
    const { host } = setup({
      callbacks: {
        onMessage: (message) => heard.push(`message ${message.type}`),
        onNote: (note) => heard.push(`note ${note.sections?.['hpi'] ?? ''}`),
        onDocument: (document) => heard.push(`document ${document.pdfUrl ?? ''}`),
        onSessionStarted: (session) => heard.push(`session ${session.sessionId}`),
        onError: (error) => errors.push(error),
      },
    });
    receive(host, { type: 'SESSION_STARTED', sessionId: 'ses_1' });
    receive(host, { type: 'PUSH_NOTE', note: 'n', sections: { hpi: 'Cough' }, sessionId: 'ses_1', patientId: 'MRN-7' });
    const pdf = {
      type: 'PUSH_DOCUMENT',
      title: 't',
      content: 'c',
      documentType: 'pdf',
      pdfUrl: 'https://x/pdf',
    } as const;
    receive(host, { ...pdf, sessionId: 'ses_1', patientId: 'MRN-7' });
    receive(host, { type: 'WIDGET_ERROR', code: 'INVALID_PATIENT_DATA', message: 'patient.id: is required' });
    expect(heard).toEqual([
      'message SESSION_STARTED',
      'session ses_1',
      'message PUSH_NOTE',
      'note Cough',
      'message PUSH_DOCUMENT',
      'document https://x/pdf',
      'message WIDGET_ERROR',
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      name: 'WidgetEmbedError',
      source: 'widget',
      code: 'INVALID_PATIENT_DATA',
      message: 'patient.id: is required',
    });
  });

  it('sends CLOSE_WIDGET on close(); once disposed it ignores the widget, sends nothing and loads nothing', async () => {
    const { host, frame, tokenCalls } = setup({ tokens: [() => 'a', () => 'b'] });
    await host.start();
    receive(host, READY);
    host.close();
    host.dispose();
    expect(frame.types()).toEqual(['PATIENT_CONTEXT', 'CLOSE_WIDGET']);

    host.close();
    host.update({ patientContext: PATIENT });
    receive(host, READY);
    receive(host, { type: 'REQUEST_TOKEN_REFRESH' });
    receive(host, { type: 'TOKEN_EXPIRED' });
    await host.start();
    await settle();
    expect(frame.types()).toEqual(['PATIENT_CONTEXT', 'CLOSE_WIDGET']);
    expect(frame.loaded).toEqual(['a']);
    expect(tokenCalls()).toBe(2);
  });
});
