import {
  IDEMPOTENCY_KEY_TTL_SECONDS,
  type ErrorBody,
  type IssuedApiKey,
  type Note,
  type Project,
  type WidgetErrorEnvelope,
  type WidgetNote,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createAdminToken, setUpOwner } from '@chartwright/testing/console.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { CHART, openWidget, setPatientContext } from '@chartwright/testing/widget-encounters.js';
import { testConfig } from '../config/config.js';

// A synthetic visit, whose words stand for the patient data a kept answer holds.
const VISIT = [
  'Doctor: What brings you in today?',
  'Patient: I have had a dry cough for two weeks. I take lisinopril 10 mg daily.',
  'Doctor: Your lungs sound clear. Let us try honey and fluids and review in a week.',
].join('\n');
const NOTE = { template_id: 'soap', conversation_text: VISIT };
const DAY_MS = IDEMPOTENCY_KEY_TTL_SECONDS * 1000;

const errorOf = (response: LightMyRequestResponse) => response.json<ErrorBody>().error;
const replayed = (response: LightMyRequestResponse) => response.headers['idempotent-replayed'];

describe.each(TEST_DIALECTS)('Idempotency-Key on %s', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ dialect });
  });
  afterEach(async () => {
    await h.close();
  });

  const createNote = (key: string | undefined, payload: object = NOTE, apiKey = h.project.testKey) =>
    h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: apiKey,
      payload,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });
  const noteIds = async () => (await h.database.db.selectFrom('notes').select('id').execute()).map((row) => row.id);
  const keptRows = () => h.database.db.selectFrom('idempotency_keys').selectAll().execute();

  it('answers a retried create with the first answer, marked as replayed, and makes one note', async () => {
    const first = await createNote('note-attempt-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(replayed(first)).toBeUndefined();
    const retry = await createNote('note-attempt-1');
    expect(retry.statusCode).toBe(201);
    expect(replayed(retry)).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.json<Note>()).toEqual(first.json<Note>());
    expect(await noteIds()).toEqual([first.json<Note>().id]);
    // Without a key, every request makes a note, as before.
    expect((await createNote(undefined)).statusCode).toBe(201);
    expect(await noteIds()).toHaveLength(2);
  });

  it('refuses the same key with another body, and keeps keys apart per operation and project environment', async () => {
    const first = await createNote('shared-key');
    expect(first.statusCode).toBe(201);
    const reused = await createNote('shared-key', { ...NOTE, style: 'concise' });
    expect(reused.statusCode).toBe(409);
    expect(errorOf(reused)).toMatchObject({ type: 'conflict_error', code: 'idempotency_key_reused' });
    // The same body with its fields in another order is the same request.
    const reordered = await createNote('shared-key', { conversation_text: VISIT, template_id: 'soap' });
    expect(replayed(reordered)).toBe('true');
    const token = await h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: h.project.testKey,
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(token.statusCode, token.body).toBe(201);
    expect(replayed(token)).toBeUndefined();
    const live = await createNote('shared-key', NOTE, h.project.liveKey);
    expect(live.statusCode).toBe(201);
    expect(replayed(live)).toBeUndefined();
    expect(live.json<Note>().id).not.toBe(first.json<Note>().id);
  });

  it('makes one note of ten identical requests sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => createNote('burst')));
    const made = answers.filter((answer) => answer.statusCode === 201);
    const waiting = answers.filter((answer) => answer.statusCode !== 201);
    expect(made.filter((answer) => replayed(answer) === undefined)).toHaveLength(1);
    expect(new Set(made.map((answer) => answer.json<Note>().id)).size).toBe(1);
    for (const answer of waiting) {
      expect(answer.statusCode).toBe(409);
      expect(errorOf(answer).code).toBe('idempotency_key_in_use');
      expect(answer.headers['retry-after']).toBe('1');
    }
    expect(await noteIds()).toHaveLength(1);
    // Once the first is written, a retry gets it.
    const retry = await createNote('burst');
    expect(replayed(retry)).toBe('true');
    expect(retry.json<Note>().id).toBe(made[0]?.json<Note>().id);
  });

  it('answers in_use while a first request holds the key, and runs a retry once its claim lapses', async () => {
    const first = await createNote('held');
    const [row] = await keptRows();
    // As if the first request's instance stopped before answering: the row holds the key, with no answer.
    await h.database.db
      .updateTable('idempotency_keys')
      .set({ response_status: null, response: null, locked_until: h.clock.now() + 60_000 })
      .execute();
    const busy = await createNote('held');
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy).code).toBe('idempotency_key_in_use');
    h.clock.advance(60_000);
    const rerun = await createNote('held');
    expect(rerun.statusCode).toBe(201);
    expect(replayed(rerun)).toBeUndefined();
    expect(rerun.json<Note>().id).not.toBe(first.json<Note>().id);
    expect((await keptRows())[0]?.claim).not.toBe(row?.claim);
  });

  it('does not keep an invalid body, and answers an error of the operation again as that error', async () => {
    const invalid = await createNote('first-try', { template_id: 'soap' });
    expect(invalid.statusCode).toBe(400);
    expect(errorOf(invalid).code).toBe('invalid_body');
    expect(await keptRows()).toEqual([]);
    const unknown = await createNote('first-try', { ...NOTE, template_id: 'no-such-template' });
    expect(errorOf(unknown).code).toBe('template_not_found');
    const again = await createNote('first-try', { ...NOTE, template_id: 'no-such-template' });
    expect(again.statusCode).toBe(400);
    expect(replayed(again)).toBe('true');
    expect(errorOf(again)).toMatchObject({ code: 'template_not_found', message: errorOf(unknown).message });
    expect(await noteIds()).toEqual([]);
  });

  it('refuses a malformed key with a coded 400 naming the header', async () => {
    for (const key of ['', 'k'.repeat(256), 'clé']) {
      const response = await createNote(key);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'invalid_idempotency_key', param: 'Idempotency-Key' });
      expect(errorOf(response).message).toContain('Idempotency-Key');
    }
    expect(await noteIds()).toEqual([]);
    expect((await createNote('k'.repeat(255))).statusCode).toBe(201);
  });

  it('forgets a key after 24 hours, and the retention sweep deletes it', async () => {
    const first = await createNote('daily');
    h.clock.advance(DAY_MS - 1);
    expect(replayed(await createNote('daily'))).toBe('true');
    h.clock.advance(1);
    const later = await createNote('daily');
    expect(later.statusCode).toBe(201);
    expect(replayed(later)).toBeUndefined();
    expect(later.json<Note>().id).not.toBe(first.json<Note>().id);
    await createNote('another');
    h.clock.advance(DAY_MS);
    expect((await h.retention.sweep()).idempotency_keys).toBe(2);
    expect(await keptRows()).toEqual([]);
  });

  it('keeps the answer sealed, logs none of it, and deletes it with the note', async () => {
    const first = await createNote('sealed');
    const noteText = first.json<Note>().sections.find((section) => section.text.length > 20)?.text ?? '';
    expect(noteText).not.toBe('');
    const [row] = await keptRows();
    expect(row).toMatchObject({ response_status: 201, resource_id: first.json<Note>().id });
    expect(row?.response).not.toContain(noteText);
    expect(row?.response).not.toContain('lisinopril');
    await createNote('sealed');
    expect(h.logs.text).not.toContain(noteText);
    expect(h.logs.text).not.toContain('lisinopril');
    const deleted = await h.request({
      method: 'DELETE',
      url: `/api/v1/notes/${first.json<Note>().id}`,
      key: h.project.testKey,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await keptRows()).toEqual([]);
  });
});

describe.each(TEST_DIALECTS)('Idempotency-Key on the widget and management APIs on %s', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ dialect, config: { notes: { ...testConfig().notes } } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('replays a widget note for its clinician, in the widget envelope, and forgets it with the encounter', async () => {
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
    await setPatientContext(h, widget, CHART);
    const post = (payload: object) =>
      h.app.inject({
        method: 'POST',
        url: `/api/widget/encounters/${widget.sessionId}/notes`,
        headers: { authorization: `Bearer ${widget.token}`, 'idempotency-key': 'widget-note' },
        payload,
      });
    const first = await post({ conversationText: VISIT });
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post({ conversationText: VISIT });
    expect(replayed(retry)).toBe('true');
    expect(retry.json<WidgetNote>().id).toBe(first.json<WidgetNote>().id);
    const reused = await post({ conversationText: `${VISIT}\nDoctor: Goodbye.` });
    expect(reused.statusCode).toBe(409);
    expect(reused.json<WidgetErrorEnvelope>()).toMatchObject({
      success: false,
      error: { code: 'idempotency_key_reused' },
    });
    const deleted = await h.app.inject({
      method: 'DELETE',
      url: `/api/widget/encounters/${widget.sessionId}`,
      headers: { authorization: `Bearer ${widget.token}` },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await h.database.db.selectFrom('idempotency_keys').selectAll().execute()).toEqual([]);
  });

  it('replays a new API key with its secret, sealed at rest, and makes one project of ten requests at once', async () => {
    const admin = (await createAdminToken(await setUpOwner(h), 'admin')).secret;
    const post = (url: string, payload: object, key: string) =>
      h.request({ method: 'POST', url, key: admin, headers: { 'idempotency-key': key }, payload });
    const projects = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/v1/projects', { name: 'Burst clinic' }, 'project-burst')),
    );
    expect(projects.map((answer) => answer.statusCode).sort()).toContain(201);
    const made = projects.filter((answer) => answer.statusCode === 201);
    expect(new Set(made.map((answer) => answer.json<Project>().id)).size).toBe(1);
    for (const answer of projects.filter((candidate) => candidate.statusCode !== 201)) {
      expect(errorOf(answer).code).toBe('idempotency_key_in_use');
    }
    const names = await h.database.db.selectFrom('projects').select('name').execute();
    expect(names.filter((row) => row.name === 'Burst clinic')).toHaveLength(1);

    const projectId = made[0]?.json<Project>().id ?? '';
    const keysUrl = `/api/v1/projects/${projectId}/keys`;
    const first = await post(keysUrl, { environment: 'test' }, 'key-1');
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post(keysUrl, { environment: 'test' }, 'key-1');
    expect(replayed(retry)).toBe('true');
    expect(retry.json<IssuedApiKey>().secret).toBe(first.json<IssuedApiKey>().secret);
    const stored = await h.database.db.selectFrom('idempotency_keys').select('response').execute();
    expect(stored.map((row) => row.response).join('')).not.toContain(first.json<IssuedApiKey>().secret);
    const keys = await h.database.db.selectFrom('api_keys').select('id').where('project_id', '=', projectId).execute();
    expect(keys).toHaveLength(1);
  });
});

describe('Idempotency-Key and a 5xx', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('does not keep an overloaded refusal: the retry with its key writes the note', async () => {
    h = await createHarness({ config: { notes: { ...testConfig().notes, workers: 1, queueLimit: 0 } } });
    const post = (key: string, conversation: string) =>
      h.request({
        method: 'POST',
        url: '/api/v1/notes',
        key: h.project.testKey,
        headers: { 'idempotency-key': key },
        payload: { template_id: 'soap', conversation_text: conversation },
      });
    const visits = { a: VISIT, b: `${VISIT}\nDoctor: Any allergies?\nPatient: None.` };
    const answers = await Promise.all([post('a', visits.a), post('b', visits.b)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 503]);
    const refusedKey = answers[0].statusCode === 503 ? 'a' : 'b';
    const retry = await post(refusedKey, visits[refusedKey]);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(replayed(retry)).toBeUndefined();
    expect(replayed(await post(refusedKey, visits[refusedKey]))).toBe('true');
  });
});
