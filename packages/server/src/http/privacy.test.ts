import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe('credentials never reach logs or error messages', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { logLevel: 'trace' } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('keeps keys and tokens out of every log line and response error', async () => {
    const minted = await h.request({ method: 'POST', url: '/api/v1/realtime/tokens', key: h.project.testKey });
    const { token } = minted.json<{ token: string }>();
    const unknownKey = `sk_live_${'Q'.repeat(43)}`;
    const responses = await Promise.all([
      h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey }),
      h.request({ method: 'GET', url: '/api/v1/templates', key: token }),
      h.request({ method: 'GET', url: '/api/v1/templates', key: unknownKey }),
      h.request({ method: 'GET', url: `/api/v1/templates?api_key=${h.project.liveKey}` }),
      h.request({ method: 'GET', url: '/api/v1/templates', headers: { authorization: `Token ${h.project.liveKey}` } }),
      h.request({
        method: 'POST',
        url: '/api/v1/realtime/tokens',
        key: h.project.testKey,
        payload: { expiresInSeconds: h.project.liveKey },
      }),
    ]);
    await h.keys.revoke(h.project.testKeyId);
    responses.push(await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey }));

    // One line per request (the token was minted by one more).
    expect(h.logs.lines.length).toBeGreaterThanOrEqual(responses.length + 1);
    for (const secret of [h.project.testKey, h.project.liveKey, token, unknownKey]) {
      expect(h.logs.text).not.toContain(secret);
      // The random part alone must not leak either (a log that dropped the prefix would still leak).
      expect(h.logs.text).not.toContain(secret.slice(-20));
      for (const response of responses.slice(1)) expect(response.body).not.toContain(secret.slice(-20));
    }
  });
});

describe('patient data never reaches logs or error messages', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { logLevel: 'trace' } });
  });
  afterEach(async () => {
    await h.close();
  });

  // Synthetic PHI, distinctive enough that any leak is unmistakable.
  const PATIENT = 'Quillon Marchetti-Varga';
  const HEALTH_CARD = '9876-543-210-QZ';
  const SYMPTOM = 'zygomatic paresthesia';

  it('keeps names, identifiers, transcripts and notes out of logs and errors', async () => {
    const conversation = `[doctor] hello ${PATIENT} .\n[patient] i have had ${SYMPTOM} since tuesday .`;
    const note = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'soap', conversation_text: conversation, patient: { name: PATIENT } },
    });
    expect(note.statusCode).toBe(201);
    const refusedNote = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'nope', conversation_text: conversation, patient: { name: PATIENT } },
    });

    const partner = await h.createPartner();
    const { token } = await h.mintWidgetToken(partner.partnerKey, {
      userEmail: 'dr.quill@clinic.example',
      emrUserId: 'u-1',
      emrSessionId: 'visit-1',
    });
    const auth = { authorization: `Bearer ${token}` };
    const encounter = await h.request({ method: 'POST', url: '/api/widget/encounters', headers: auth });
    const { sessionId } = encounter.json<{ sessionId: string }>();
    const patient = { id: 'p-1', name: PATIENT, healthCardNumber: HEALTH_CARD, gender: 'spaceship' };
    const refusedContext = await h.request({
      method: 'PUT',
      url: `/api/widget/encounters/${sessionId}/patient-context`,
      headers: auth,
      payload: { patient },
    });
    expect(refusedContext.statusCode).toBe(400);
    const accepted = await h.request({
      method: 'PUT',
      url: `/api/widget/encounters/${sessionId}/patient-context`,
      headers: auth,
      payload: { patient: { ...patient, gender: 'female' } },
    });
    expect(accepted.statusCode).toBe(200);

    for (const secret of [PATIENT, HEALTH_CARD, SYMPTOM, 'dr.quill@clinic.example']) {
      expect(h.logs.text).not.toContain(secret);
      for (const response of [refusedNote, refusedContext]) expect(response.body).not.toContain(secret);
    }
    expect(h.logs.text).not.toContain(token);
  });
});
