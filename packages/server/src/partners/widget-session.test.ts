import { createPrivateKey, type KeyObject } from 'node:crypto';

import {
  REST_ENDPOINTS,
  type PatientContextResult,
  type RealtimeToken,
  type WidgetEncounter,
  type WidgetErrorEnvelope,
  type WidgetSessionInfo,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpenAiRecognizer } from '../asr/openai/index.js';
import { Authenticator } from '../auth/authenticator.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

interface Partner {
  id: string;
  partnerKey: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const getSession = (h: Harness, token: string) =>
  h.app.inject({ method: 'GET', url: '/api/widget/session', headers: bearer(token) });

async function openEncounter(h: Harness, token: string): Promise<WidgetEncounter> {
  const response = await h.app.inject({ method: 'POST', url: '/api/widget/encounters', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<WidgetEncounter>();
}

const putPatientContext = (h: Harness, token: string, sessionId: string, body: unknown) =>
  h.app.inject({
    method: 'PUT',
    url: `/api/widget/encounters/${encodeURIComponent(sessionId)}/patient-context`,
    headers: bearer(token),
    payload: body as Record<string, unknown>,
  });

const postRealtimeToken = (h: Harness, token: string, body: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/widget/realtime-tokens', headers: bearer(token), payload: body });

/** Realtime tokens are minted only once the patient's consent to recording is recorded. */
async function recordConsent(h: Harness, token: string, sessionId: string): Promise<void> {
  const response = await h.app.inject({
    method: 'POST',
    url: `/api/widget/encounters/${sessionId}/consent`,
    headers: bearer(token),
    payload: { method: 'verbal' },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The exact envelope of a widget error without field details. */
function expectWidgetError(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<WidgetErrorEnvelope>()).toEqual({
    success: false,
    error: { code, message: expect.any(String) as unknown, requestId: response.headers['x-request-id'] },
  });
}

const minimalPatient = { id: 'MRN-0042', name: 'Jane Q. Doe' };

describe.each(TEST_DIALECTS)('widget encounters on %s', (dialect) => {
  let h: Harness;
  let partner: Partner;
  beforeEach(async () => {
    h = await createHarness({ dialect });
    partner = await h.createPartner({ origins: ['https://emr.example.com', 'http://localhost:3000'] });
  });
  afterEach(async () => {
    await h.close();
  });

  const mint = (emrSessionId?: string, who: { partner?: Partner; emrUserId?: string } = {}) =>
    h.mintWidgetToken((who.partner ?? partner).partnerKey, {
      userEmail: 'dr.who@clinic.example',
      emrUserId: who.emrUserId ?? 'emr-user-1',
      ...(emrSessionId === undefined ? {} : { emrSessionId }),
    });

  it('names the recognizer the widget records with: a transcription server by its model, never its address', async () => {
    const withServer = await createHarness({
      dialect,
      recognizer: new OpenAiRecognizer({
        baseUrl: 'http://whisper.internal.example:8000/v1',
        apiKey: 'sk-transcription-secret',
        model: 'Systran/faster-whisper-small.en',
        timeoutMs: 1000,
        maxConcurrentRequests: 1,
      }),
    });
    try {
      const issued = await withServer.createPartner();
      const { token } = await withServer.mintWidgetToken(issued.partnerKey, {
        userEmail: 'dr.who@clinic.example',
        emrUserId: 'emr-user-1',
      });
      const response = await getSession(withServer, token);
      expect(response.json<WidgetSessionInfo>().recognizer).toEqual({
        kind: 'transcription_server',
        name: 'Systran/faster-whisper-small.en',
      });
      expect(response.body).not.toMatch(/whisper\.internal|sk-transcription/);
    } finally {
      await withServer.close();
    }
  });

  it('describes the widget session', async () => {
    const { token, expiresAt } = await mint('visit-1');
    const response = await getSession(h, token);
    expect(response.statusCode).toBe(200);
    expect(response.json<WidgetSessionInfo>()).toStrictEqual({
      clinician: {
        id: decodeJwt(token).sub,
        email: 'dr.who@clinic.example',
        emrUserId: 'emr-user-1',
        displayName: null,
      },
      partner: { id: partner.id, name: 'Harness EMR' },
      environment: 'test',
      allowedOrigins: ['https://emr.example.com', 'http://localhost:3000'],
      emrSessionId: 'visit-1',
      expiresAt,
      // This harness has no recognizer.
      recognizer: { kind: 'none', name: 'none' },
    });
    const without = (await getSession(h, (await mint()).token)).json<WidgetSessionInfo>();
    expect(without.emrSessionId).toBeNull();
  });

  it('resumes the encounter of an emrSessionId on relaunch with a new token', async () => {
    const first = await openEncounter(h, (await mint('visit-7')).token);
    expect(first).toMatchObject({ emrSessionId: 'visit-7', resumed: false, patientId: null });
    expect(first.sessionId).toEqual(expect.any(String));

    h.clock.advance(60_000);
    const relaunch = await mint('visit-7');
    const resumed = await openEncounter(h, relaunch.token);
    expect(resumed).toEqual({ ...first, resumed: true });
    // Reopening with the same token again also resumes.
    expect((await openEncounter(h, relaunch.token)).sessionId).toBe(first.sessionId);
  });

  it('never shares an encounter between partners or clinicians', async () => {
    const first = await openEncounter(h, (await mint('visit-7')).token);
    const otherPartner = await h.createPartner({ origins: ['https://other-emr.example.com'] });
    const elsewhere = await openEncounter(h, (await mint('visit-7', { partner: otherPartner })).token);
    const colleague = await openEncounter(h, (await mint('visit-7', { emrUserId: 'emr-user-2' })).token);
    const anotherVisit = await openEncounter(h, (await mint('visit-8')).token);

    for (const other of [elsewhere, colleague, anotherVisit]) {
      expect(other.resumed).toBe(false);
      expect(other.sessionId).not.toBe(first.sessionId);
    }
    expect(new Set([first, elsewhere, colleague, anotherVisit].map((e) => e.sessionId)).size).toBe(4);
  });

  it('opens a new encounter on every call without an emrSessionId', async () => {
    const { token } = await mint();
    const opened = [await openEncounter(h, token), await openEncounter(h, token), await openEncounter(h, token)];
    for (const encounter of opened) expect(encounter).toMatchObject({ emrSessionId: null, resumed: false });
    expect(new Set(opened.map((encounter) => encounter.sessionId)).size).toBe(3);
  });

  it('stores the namespaced patient key and the raw patient id', async () => {
    const { token } = await mint('visit-9');
    const { sessionId } = await openEncounter(h, token);
    const response = await putPatientContext(h, token, sessionId, { patient: minimalPatient });
    expect(response.statusCode, response.body).toBe(200);
    const clinicianId = decodeJwt(token).sub ?? '';
    const row = await h.repositories.encounters.getOwned(sessionId, { partnerId: partner.id, clinicianId });
    expect(row).toMatchObject({
      patient_key: `widget_${partner.id}_MRN-0042`,
      patient_id: 'MRN-0042',
      project_id: h.project.id,
      environment: 'test',
    });
    expect((await openEncounter(h, (await mint('visit-9')).token)).patientId).toBe('MRN-0042');
  });
});

describe('widget session API', () => {
  let h: Harness;
  let partner: Partner;
  beforeEach(async () => {
    // Each case refuses a bad token on every route from one address: more than the failures a
    // minute a client may make (widget-rate-limits.test.ts throttles them).
    h = await createHarness({ config: { widgetAuthFailuresPerMinute: 1000 } });
    partner = await h.createPartner();
  });
  afterEach(async () => {
    await h.close();
  });

  const mint = (who: { partner?: Partner; emrUserId?: string; emrSessionId?: string } = {}) =>
    h.mintWidgetToken((who.partner ?? partner).partnerKey, {
      userEmail: 'dr.who@clinic.example',
      emrUserId: who.emrUserId ?? 'emr-user-1',
      ...(who.emrSessionId === undefined ? {} : { emrSessionId: who.emrSessionId }),
    });

  describe('PUT /api/widget/encounters/{sessionId}/patient-context', () => {
    let token: string;
    let sessionId: string;
    beforeEach(async () => {
      ({ token } = await mint({ emrSessionId: 'visit-1' }));
      ({ sessionId } = await openEncounter(h, token));
    });

    async function setContext(body: unknown): Promise<PatientContextResult> {
      const response = await putPatientContext(h, token, sessionId, body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PatientContextResult>();
    }

    it('echoes the raw patient id and uses SOAP without a noteConfig', async () => {
      const result = await setContext({
        patient: { ...minimalPatient, gender: ' Female ', email: '' },
        context: { allergies: [{ name: 'Penicillin', severity: 'SEVERE' }], chiefComplaint: 'Cough' },
        appointment: { id: 'apt-1', duration: 15 },
      });
      expect(result.sessionId).toBe(sessionId);
      expect(result.patientId).toBe('MRN-0042');
      expect(result.template.id).toBe('soap');
      expect(result.sectionKeys).toEqual(
        ['subjective', 'objective', 'assessment', 'plan'].map((key) => ({
          templateKey: key,
          hostKey: key,
          label: expect.any(String) as unknown,
        })),
      );
    });

    it('maps the classic labels to SOAP under the host’s keys', async () => {
      const result = await setContext({
        patient: minimalPatient,
        noteConfig: {
          sections: [
            { key: 's', label: ' subjective ' },
            { key: 'o', label: 'OBJECTIVE' },
            { key: 'a', label: 'Assessment' },
            { key: 'p', label: 'plan' },
          ],
        },
      });
      expect(result.template.id).toBe('soap');
      expect(result.sectionKeys.map(({ templateKey, hostKey }) => [templateKey, hostKey])).toEqual([
        ['subjective', 's'],
        ['objective', 'o'],
        ['assessment', 'a'],
        ['plan', 'p'],
      ]);
    });

    it('gives other labels a heading template whose id depends on the labels alone', async () => {
      const labels = ['History', 'Examination', 'Impression'];
      const withKeys = async (keys: string[]) => {
        const { sessionId: fresh } = await openEncounter(h, (await mint()).token);
        const response = await putPatientContext(h, (await mint()).token, fresh, {
          patient: minimalPatient,
          noteConfig: { sections: labels.map((label, index) => ({ key: keys[index], label })) },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<PatientContextResult>();
      };
      const first = await withKeys(['hx', 'exam', 'imp']);
      const second = await withKeys(['history', 'physical', 'summary']);
      expect(first.template.id).toMatch(/^headings_/);
      expect(second.template.id).toBe(first.template.id);
      expect(first.template.sections.map((section) => section.key)).toEqual(['hx', 'exam', 'imp']);
      expect(second.template.sections.map((section) => section.key)).toEqual(['history', 'physical', 'summary']);
      expect(first.sectionKeys.map((entry) => [entry.hostKey, entry.label])).toEqual([
        ['hx', 'History'],
        ['exam', 'Examination'],
        ['imp', 'Impression'],
      ]);

      const other = await setContext({
        patient: minimalPatient,
        noteConfig: { sections: [{ key: 'hx', label: 'History' }] },
      });
      expect(other.template.id).toMatch(/^headings_/);
      expect(other.template.id).not.toBe(first.template.id);
    });

    it('refuses an invalid body with 400 naming every field', async () => {
      const response = await putPatientContext(h, token, sessionId, {
        patient: { id: 'MRN-1', name: 'Jane Doe', gender: 'robot' },
        noteConfig: { sections: [{ key: '1st', label: 'First' }] },
      });
      expect(response.statusCode).toBe(400);
      const envelope = response.json<WidgetErrorEnvelope>();
      expect(envelope).toEqual({
        success: false,
        error: {
          code: 'invalid_body',
          message: expect.any(String) as unknown,
          requestId: response.headers['x-request-id'],
          details: expect.arrayContaining([
            { path: 'patient.gender', message: expect.any(String) as unknown },
            { path: 'noteConfig.sections[0].key', message: expect.any(String) as unknown },
          ]) as unknown,
        },
      });
      expect(envelope.error.message).toContain('patient.gender');

      const missing = await putPatientContext(h, token, sessionId, { patient: { id: '  ' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json<WidgetErrorEnvelope>().error.details?.map((detail) => detail.path)).toEqual(
        expect.arrayContaining(['patient.id', 'patient.name']),
      );
      // Nothing was recorded.
      const clinicianId = decodeJwt(token).sub ?? '';
      const row = await h.repositories.encounters.getOwned(sessionId, { partnerId: partner.id, clinicianId });
      expect(row?.patient_key).toBeNull();
    });

    it('keeps an encounter to its first patient', async () => {
      await setContext({ patient: minimalPatient });
      const other = await putPatientContext(h, token, sessionId, { patient: { id: 'MRN-9999', name: 'John Roe' } });
      expectWidgetError(other, 409, 'patient_mismatch');
      const again = await putPatientContext(h, token, sessionId, {
        patient: minimalPatient,
        context: { chiefComplaint: 'Follow-up' },
      });
      expect(again.statusCode).toBe(200);
      expect(again.json<PatientContextResult>().patientId).toBe('MRN-0042');
    });

    it('does not reveal another clinician’s or partner’s encounter', async () => {
      const colleague = await mint({ emrUserId: 'emr-user-2', emrSessionId: 'visit-1' });
      const otherPartner = await h.createPartner({ origins: ['https://other-emr.example.com'] });
      const stranger = await mint({ partner: otherPartner, emrSessionId: 'visit-1' });
      for (const other of [colleague.token, stranger.token]) {
        expectWidgetError(
          await putPatientContext(h, other, sessionId, { patient: minimalPatient }),
          404,
          'encounter_not_found',
        );
        expectWidgetError(await postRealtimeToken(h, other, { sessionId }), 404, 'encounter_not_found');
      }
      expectWidgetError(
        await putPatientContext(h, token, 'ses_unknown', { patient: minimalPatient }),
        404,
        'encounter_not_found',
      );
    });
  });

  describe('POST /api/widget/realtime-tokens', () => {
    it('mints a svc_rt_ token bound to the partner and encounter, never outliving the widget token', async () => {
      const brief = await h.createPartner({ tokenLifetimeSeconds: 600 });
      const widget = await mint({ partner: brief, emrSessionId: 'visit-3' });
      const { sessionId } = await openEncounter(h, widget.token);
      await recordConsent(h, widget.token, sessionId);
      const response = await postRealtimeToken(h, widget.token, { sessionId, expiresInSeconds: 3600 });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const minted = response.json<RealtimeToken>();
      expect(minted).toStrictEqual({
        token: expect.stringMatching(/^svc_rt_/) as unknown,
        wsUrl: 'ws://sandbox.test/api/v1/realtime',
        expiresAt: widget.expiresAt,
      });

      const stored = await h.repositories.realtimeTokens.findBySecretHash(hashSecret(minted.token));
      expect(stored?.token).toMatchObject({
        partner_id: brief.id,
        api_key_id: null,
        encounter_id: sessionId,
        project_id: h.project.id,
        environment: 'test',
        expires_at: Date.parse(widget.expiresAt),
      });
      expect(stored?.token.expires_at).toBeLessThanOrEqual(Date.parse(widget.expiresAt));
      expect(JSON.stringify(stored)).not.toContain(minted.token);

      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      await expect(authenticator.authenticate(minted.token)).resolves.toMatchObject({
        kind: 'realtime_token',
        projectId: h.project.id,
        environment: 'test',
        issuer: { kind: 'partner', id: brief.id },
        encounterId: sessionId,
        expiresAt: Date.parse(widget.expiresAt),
      });

      // A temporary token opens the WebSocket only, never the REST API.
      const rest = await h.request({ method: 'GET', url: '/api/v1/templates', key: minted.token });
      expect(rest.statusCode).toBe(403);
      expect(rest.json<{ error: { code: string } }>().error.code).toBe('temporary_token_not_allowed');

      await h.partners.revoke(brief.id);
      await expect(authenticator.authenticate(minted.token)).rejects.toMatchObject({ code: 'partner_revoked' });
    });

    it('defaults to an hour, and uses the production address for a live partner', async () => {
      const live = await h.createPartner({ environment: 'live' });
      const widget = await mint({ partner: live });
      const { sessionId } = await openEncounter(h, widget.token);
      await recordConsent(h, widget.token, sessionId);
      const response = await postRealtimeToken(h, widget.token, { sessionId });
      expect(response.statusCode).toBe(201);
      const minted = response.json<RealtimeToken>();
      expect(minted.wsUrl).toBe('ws://api.test/api/v1/realtime');
      expect(Date.parse(minted.expiresAt)).toBe(h.clock.now() + 3_600_000);
      const stored = await h.repositories.realtimeTokens.findBySecretHash(hashSecret(minted.token));
      expect(stored?.token).toMatchObject({ environment: 'live', partner_id: live.id });
    });

    it('refuses an invalid body', async () => {
      const { token } = await mint();
      const { sessionId } = await openEncounter(h, token);
      for (const body of [{}, { sessionId, expiresInSeconds: 3601 }, { sessionId, extra: true }]) {
        const response = await postRealtimeToken(h, token, body);
        expect(response.statusCode).toBe(400);
        expect(response.json<WidgetErrorEnvelope>().error.code).toBe('invalid_body');
      }
    });
  });

  describe('authentication on every widget session route', () => {
    const routes = REST_ENDPOINTS.filter((spec) => spec.auth === 'widget_token');

    async function expectRefusedEverywhere(headers: Record<string, string>, code: string): Promise<void> {
      expect(routes.map((spec) => spec.operationId).sort()).toEqual([
        'correctWidgetTranscriptSegment',
        'createWidgetDocument',
        'createWidgetDocumentPdf',
        'createWidgetRealtimeToken',
        'deleteWidgetDocument',
        'deleteWidgetEncounter',
        'deleteWidgetNote',
        'generateWidgetNote',
        'getWidgetEncounter',
        'getWidgetSession',
        'getWidgetTranscript',
        'listWidgetDocuments',
        'listWidgetNotes',
        'openWidgetEncounter',
        'recordWidgetConsent',
        'recordWidgetDocumentPush',
        'recordWidgetNotePush',
        'setWidgetPatientContext',
        'swapWidgetSpeakerRoles',
        'updateWidgetDocument',
        'updateWidgetNote',
        'updateWidgetProfile',
        'withdrawWidgetConsent',
      ]);
      for (const spec of routes) {
        const response = await h.app.inject({
          method: spec.method,
          url: spec.path.replace(/\{[^}]+\}/g, 'ses_anything'),
          headers,
        });
        expect(response.statusCode, `${spec.method} ${spec.path}`).toBe(401);
        expectWidgetError(response, 401, code);
      }
    }

    /** The signing key the service is configured with. */
    function serviceKey(): Promise<KeyObject> {
      const pem = h.config.widgetJwtPrivateKey;
      if (pem === null) throw new Error('the test configuration gives no signing key');
      return Promise.resolve(createPrivateKey(pem));
    }

    /** A token with a genuine token's claims, re-signed with `key` after applying `change`. */
    async function resign(
      genuine: string,
      key: Parameters<SignJWT['sign']>[0],
      change: (payload: JWTPayload) => JWTPayload = (payload) => payload,
    ): Promise<string> {
      const header = decodeProtectedHeader(genuine);
      return new SignJWT(change(decodeJwt(genuine)))
        .setProtectedHeader({ alg: 'EdDSA', kid: header.kid ?? '', typ: 'JWT' })
        .sign(key);
    }

    it('accepts a genuine token re-signed with the service key (the control for the cases below)', async () => {
      const { token } = await mint();
      const copy = await resign(token, await serviceKey());
      expect((await getSession(h, copy)).statusCode).toBe(200);
    });

    it('refuses a request without Authorization', async () => {
      await expectRefusedEverywhere({}, 'missing_authorization');
    });

    it('refuses garbage', async () => {
      await expectRefusedEverywhere(bearer('garbage'), 'invalid_widget_token');
      await expectRefusedEverywhere(bearer('a.b.c'), 'invalid_widget_token');
    });

    it('refuses an API key in place of a widget token', async () => {
      await expectRefusedEverywhere(bearer(h.project.testKey), 'invalid_widget_token');
    });

    it('refuses a token forged with another key under the real kid', async () => {
      const { token } = await mint();
      const { privateKey } = await generateKeyPair('EdDSA');
      await expectRefusedEverywhere(bearer(await resign(token, privateKey)), 'invalid_widget_token');
    });

    it('refuses a genuine signature over the wrong audience or issuer', async () => {
      const { token } = await mint();
      const key = await serviceKey();
      const wrongAudience = await resign(token, key, (payload) => ({ ...payload, aud: 'someone-else' }));
      const wrongIssuer = await resign(token, key, (payload) => ({ ...payload, iss: 'http://evil.test' }));
      await expectRefusedEverywhere(bearer(wrongAudience), 'invalid_widget_token');
      await expectRefusedEverywhere(bearer(wrongIssuer), 'invalid_widget_token');
    });

    it('refuses an expired token', async () => {
      const { token, expiresAt } = await mint();
      h.clock.advance(Date.parse(expiresAt) - h.clock.now());
      await expectRefusedEverywhere(bearer(token), 'widget_token_expired');
    });

    it('refuses the token of a revoked partner', async () => {
      const { token } = await mint();
      expect((await getSession(h, token)).statusCode).toBe(200);
      await h.partners.revoke(partner.id);
      await expectRefusedEverywhere(bearer(token), 'partner_revoked');
    });
  });
});
