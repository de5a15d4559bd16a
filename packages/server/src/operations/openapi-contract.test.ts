import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  CSRF_HEADER,
  type ConsoleSession,
  type IssuedAdminToken,
  type IssuedApiKey,
  type IssuedInvitation,
  type IssuedPartnerKey,
} from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUILT_SCRIPT, BUILT_STYLE, writeAppBuild } from '@chartwright/testing/app-build.js';
import { linkToken, OWNER } from '@chartwright/testing/console.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { followToRedirect, startOpenIdProvider } from '@chartwright/testing/openid-provider.js';
import {
  startValidatingProxy,
  type CheckedAnswer,
  type ValidatingProxy,
  type Violation,
} from '@chartwright/testing/validating-proxy.js';
import { CHART, storeRealtimeSession, VISIT } from '@chartwright/testing/widget-encounters.js';
import { testConfig } from '../config/config.js';

/**
 * The service's answers, as its clients meet them, checked against the OpenAPI document it serves:
 * a real service on a port, Stoplight Prism in front of it (the validator an API's users run), and
 * traffic through every operation of the document, successes and refusals alike. Prism names every
 * status the document does not list, every body that does not match its schema and every content
 * type it does not declare; a request that is right by the service must be right by the document
 * too. The last test breaks answers on purpose and expects Prism to say so.
 */

/** Sent by the break-on-purpose test: the service then spoils its answer the way the header says. */
const BREAK_HEADER = 'x-test-break-answer';

function breakAnswersOnRequest(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const how = request.headers[BREAK_HEADER];
    if (how === 'wrong-type' && typeof payload === 'string') {
      const templates = JSON.parse(payload) as { id: unknown }[];
      if (templates[0] !== undefined) templates[0].id = 42;
      done(null, JSON.stringify(templates));
      return;
    }
    if (how === 'missing-field') {
      done(null, '{}');
      return;
    }
    if (how === 'undocumented-status') void reply.code(299);
    done(null, payload);
  });
}

interface Call {
  headers?: Record<string, string>;
  json?: unknown;
  /** A body that is not JSON: `[content type, text]`. */
  raw?: readonly [string, string];
  /** The request is wrong on purpose (a missing credential, a bad body): only the answer must match. */
  wrong?: true;
}

/** Traffic through the proxy, keeping every mismatch it reports and every status other than expected. */
class Contract {
  readonly problems: string[] = [];

  constructor(private readonly proxy: ValidatingProxy) {}

  async call(method: string, path: string, expected: number, call: Call = {}): Promise<CheckedAnswer> {
    const body = call.json === undefined ? call.raw?.[1] : JSON.stringify(call.json);
    const contentType = call.json === undefined ? call.raw?.[0] : 'application/json';
    const answer = await this.proxy.fetch(path, {
      method,
      headers: {
        // Prism re-sends a body it unpacked; a compressed one would reach the client mislabelled.
        'accept-encoding': 'identity',
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
        ...call.headers,
      },
      ...(body === undefined ? {} : { body }),
    });
    const exchange = `${method} ${path} → ${answer.status}`;
    if (answer.status !== expected)
      this.problems.push(`${exchange} (expected ${expected}): ${answer.text.slice(0, 300)}`);
    const violations: readonly Violation[] = [
      ...(call.wrong === true ? [] : answer.requestViolations),
      ...answer.responseViolations,
    ];
    for (const violation of violations) {
      this.problems.push(`${exchange}: ${violation.location.join('.')}: ${violation.message}`);
    }
    return answer;
  }

  /** The JSON body of an answer that must have succeeded. */
  async json<T>(method: string, path: string, expected: number, call: Call = {}): Promise<T> {
    const answer = await this.call(method, path, expected, call);
    if (answer.status !== expected) throw new Error(`${method} ${path}: ${this.problems.join('\n')}`);
    return JSON.parse(answer.text) as T;
  }
}

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

describe('the OpenAPI document, as the service answers', () => {
  let h: Harness;
  let proxy: ValidatingProxy;
  let contract: Contract;
  let served: string;
  const folders: string[] = [];

  beforeAll(async () => {
    const widgetAppDir = writeAppBuild('widget');
    const documentFolder = mkdtempSync(join(tmpdir(), 'chartwright-contract-'));
    folders.push(widgetAppDir, documentFolder);
    const consoleConfig = { ...testConfig().console, appDir: join(documentFolder, 'no-console-build') };
    h = await createHarness({
      config: { widgetAppDir, console: consoleConfig, bodyLimitBytes: 8192, apiRateLimitPerMinute: 100 },
      configure: breakAnswersOnRequest,
    });
    const upstream = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const documentPath = join(documentFolder, 'openapi.json');
    served = (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    writeFileSync(documentPath, served);
    proxy = await startValidatingProxy(documentPath, upstream);
  });
  afterAll(async () => {
    await proxy.close();
    await h.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('holds for the REST API of sk_ keys', async () => {
    contract = new Contract(proxy);
    const key = bearer(h.project.testKey);
    const templates = await contract.call('GET', '/api/v1/templates', 200, { headers: key });
    const etag = templates.headers.get('etag') ?? '';
    await contract.call('GET', '/api/v1/templates', 304, { headers: { ...key, 'if-none-match': etag } });
    await contract.call('GET', '/api/v1/templates', 401, { wrong: true });
    const { token } = await contract.json<{ token: string }>('POST', '/api/v1/realtime/tokens', 201, { headers: key });
    await contract.call('GET', '/api/v1/templates', 403, { headers: bearer(token) });
    await contract.call('POST', '/api/v1/realtime/tokens', 201, { headers: key, json: { expiresInSeconds: 60 } });
    await contract.call('POST', '/api/v1/realtime/tokens', 400, {
      headers: key,
      json: { expiresInSeconds: 'soon' },
      wrong: true,
    });

    const conversation = VISIT.map(([speaker, text]) => `[${speaker === 'clinician' ? 'doctor' : 'patient'}] ${text}`);
    const visit = { template_id: 'soap', conversation_text: conversation.join('\n') };
    const note = await contract.json<{ id: string }>('POST', '/api/v1/notes', 201, { headers: key, json: visit });
    await contract.call('POST', '/api/v1/notes', 400, { headers: key, json: { ...visit, template_id: 'nope' } });
    await contract.call('POST', '/api/v1/notes', 400, { headers: key, json: {}, wrong: true });
    await contract.call('POST', '/api/v1/notes', 415, { headers: key, raw: ['text/plain', 'a visit'], wrong: true });
    const long = { ...visit, conversation_text: 'cough '.repeat(2000) };
    await contract.call('POST', '/api/v1/notes', 413, { headers: key, json: long });
    await contract.call('GET', `/api/v1/notes/${note.id}`, 200, { headers: key });
    await contract.call('GET', `/api/v1/notes/${note.id}?include=facts`, 200, { headers: key });
    await contract.call('GET', `/api/v1/notes/${note.id}?verbose=1`, 400, { headers: key, wrong: true });
    await contract.call('DELETE', `/api/v1/notes/${note.id}`, 400, { headers: key, json: {}, wrong: true });
    await contract.call('DELETE', `/api/v1/notes/${note.id}`, 204, { headers: key });
    await contract.call('GET', `/api/v1/notes/${note.id}`, 404, { headers: key });
    await contract.call('DELETE', `/api/v1/notes/${note.id}`, 404, { headers: key });

    await storeRealtimeSession(h, null, null, VISIT, { id: 'rts_contract_api', endReason: 'stopped' });
    await contract.call('GET', '/api/v1/realtime/sessions/rts_contract_api', 200, { headers: key });
    await contract.call('DELETE', '/api/v1/realtime/sessions/rts_contract_api', 204, { headers: key });
    await contract.call('GET', '/api/v1/realtime/sessions/rts_contract_api', 404, { headers: key });
    await contract.call('DELETE', '/api/v1/realtime/sessions/rts_contract_api', 404, { headers: key });
    await contract.call('GET', '/api/v1/realtime', 400, { headers: key });
    await contract.call('GET', '/api/v1/realtime', 401, { wrong: true });

    // The production environment's limit, spent in process; the refusal then goes through Prism.
    for (let sent = 0; sent < 100; sent++)
      await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.liveKey });
    await contract.call('GET', '/api/v1/templates', 429, { headers: bearer(h.project.liveKey) });
    expect(contract.problems).toEqual([]);
  });

  it('holds for the widget API and its PDF links', async () => {
    contract = new Contract(proxy);
    const partner = await h.createPartner();
    const partnerKey = { 'x-partner-key': partner.partnerKey };
    const clinician = {
      userEmail: 'dr.rivera@clinic.example',
      emrUserId: 'emr-user-1',
      emrSessionId: 'visit-contract',
    };
    const { data } = await contract.json<{ data: { token: string } }>('POST', '/api/widget/token', 200, {
      headers: partnerKey,
      json: clinician,
    });
    await contract.call('POST', '/api/widget/token', 401, {
      headers: { 'x-partner-key': 'nope.nope' },
      json: clinician,
    });
    await contract.call('POST', '/api/widget/token', 400, {
      headers: partnerKey,
      json: { userEmail: 'x' },
      wrong: true,
    });
    const widget = bearer(data.token);
    await contract.call('GET', '/api/widget/session', 200, { headers: widget });
    await contract.call('GET', '/api/widget/session', 401, { wrong: true });
    await contract.call('PUT', '/api/widget/profile', 200, { headers: widget, json: { displayName: 'Dr. Rivera' } });
    await contract.call('PUT', '/api/widget/profile', 400, { headers: widget, json: {}, wrong: true });
    await contract.call('POST', '/api/widget/encounters', 400, { headers: widget, json: {}, wrong: true });
    const { sessionId } = await contract.json<{ sessionId: string }>('POST', '/api/widget/encounters', 200, {
      headers: widget,
    });
    const encounter = `/api/widget/encounters/${sessionId}`;
    await contract.call('PUT', `${encounter}/patient-context`, 200, { headers: widget, json: CHART });
    const stranger = { ...CHART, patient: { ...CHART.patient, id: 'MRN-9999' } };
    await contract.call('PUT', `${encounter}/patient-context`, 409, { headers: widget, json: stranger });
    await contract.call('POST', '/api/widget/realtime-tokens', 409, { headers: widget, json: { sessionId } });
    await contract.call('POST', `${encounter}/consent`, 200, { headers: widget, json: { method: 'verbal' } });
    await contract.call('POST', '/api/widget/realtime-tokens', 201, { headers: widget, json: { sessionId } });
    await contract.call('GET', encounter, 200, { headers: widget });
    await contract.call('GET', '/api/widget/encounters/enc_missing', 404, { headers: widget });

    await storeRealtimeSession(h, partner.id, sessionId, VISIT, {
      id: 'rts_contract',
      endReason: 'stopped',
      stereo: true,
    });
    const recorded = `${encounter}/realtime-sessions/rts_contract`;
    await contract.call('GET', `${encounter}/transcript`, 200, { headers: widget });
    const correction = { text: 'I have had a cough and a fever for four days.' };
    await contract.call('PUT', `${recorded}/segments/seg_000002`, 200, { headers: widget, json: correction });
    await contract.call('PUT', `${recorded}/segments/seg_999999`, 404, { headers: widget, json: correction });
    await contract.call('POST', `${recorded}/speaker-swaps`, 200, { headers: widget, json: { speakerLabel: 'S1' } });
    await contract.call('POST', `${recorded}/speaker-swaps`, 404, { headers: widget, json: { speakerLabel: 'S9' } });

    const note = await contract.json<{ id: string }>('POST', `${encounter}/notes`, 201, { headers: widget, json: {} });
    const notePath = `${encounter}/notes/${note.id}`;
    await contract.call('GET', `${encounter}/notes`, 200, { headers: widget });
    const edit = { revision: 1, sections: { plan: 'Review in a week.' } };
    await contract.call('PUT', notePath, 200, { headers: widget, json: edit });
    await contract.call('PUT', notePath, 409, { headers: widget, json: edit });
    await contract.call('POST', `${notePath}/pushes`, 204, { headers: widget, json: { revision: 2 } });
    const document = await contract.json<{ id: string }>('POST', `${encounter}/documents`, 201, {
      headers: widget,
      json: { documentType: 'letter', noteId: note.id },
    });
    const documentPath = `${encounter}/documents/${document.id}`;
    await contract.call('GET', `${encounter}/documents`, 200, { headers: widget });
    await contract.call('PUT', documentPath, 200, { headers: widget, json: { revision: 1, title: 'Letter' } });
    await contract.call('POST', `${documentPath}/pushes`, 204, { headers: widget, json: { revision: 2 } });
    const { pdfUrl } = await contract.json<{ pdfUrl: string }>('POST', `${documentPath}/pdf`, 200, { headers: widget });
    const link = new URL(pdfUrl);
    await contract.call('GET', `${link.pathname}${link.search}`, 200);
    await contract.call('GET', `${link.pathname}${link.search.replace(/signature=[^&]+/, 'signature=forged')}`, 403);
    await contract.call('DELETE', documentPath, 204, { headers: widget });
    await contract.call('DELETE', notePath, 204, { headers: widget });
    await contract.call('DELETE', `${encounter}/consent`, 204, { headers: widget });
    await contract.call('DELETE', encounter, 204, { headers: widget });
    await contract.call('GET', encounter, 404, { headers: widget });
    expect(contract.problems).toEqual([]);
  });

  it('holds for the console and the management API', async () => {
    contract = new Contract(proxy);
    const token = linkToken(await h.consoleSetupLink());
    await contract.call('POST', '/api/v1/console/links/inspect', 200, { json: { token } });
    await contract.call('POST', '/api/v1/console/links/inspect', 404, { json: { token: 'x'.repeat(43) } });
    const setup = await contract.call('POST', '/api/v1/console/setup', 201, {
      json: { token, organisationName: 'Contract clinic', ...OWNER },
    });
    const owner = signedIn(setup);
    await contract.call('GET', '/api/v1/console/session', 200, { headers: owner.headers });
    await contract.call('GET', '/api/v1/console/session', 401, { wrong: true });
    await contract.call('GET', '/api/v1/organisation', 200, { headers: owner.headers });

    const project = await contract.json<{ id: string }>('POST', '/api/v1/projects', 201, {
      headers: owner.changes,
      json: { name: 'Contract' },
    });
    await contract.call('POST', '/api/v1/projects', 403, { headers: owner.headers, json: { name: 'No CSRF' } });
    await contract.call('GET', '/api/v1/projects', 200, { headers: owner.headers });
    const keys = `/api/v1/projects/${project.id}/keys`;
    const key = await contract.json<IssuedApiKey>('POST', keys, 201, {
      headers: owner.changes,
      json: { environment: 'test' },
    });
    await contract.call('GET', keys, 200, { headers: owner.headers });
    await contract.call('GET', `${keys}?environment=staging`, 400, { headers: owner.headers, wrong: true });
    await contract.call('GET', '/api/v1/projects/prj_missing/keys', 404, { headers: owner.headers });
    const { replacement } = await contract.json<{ replacement: IssuedApiKey }>(
      'POST',
      `${keys}/${key.key.id}/rotate`,
      201,
      {
        headers: owner.changes,
        json: { graceSeconds: 60 },
      },
    );
    await contract.call('POST', `${keys}/${key.key.id}/rotate`, 409, { headers: owner.changes, json: {} });
    await contract.call('DELETE', `${keys}/${replacement.key.id}`, 200, { headers: owner.changes });

    const partners = `/api/v1/projects/${project.id}/partners`;
    const partner = await contract.json<IssuedPartnerKey>('POST', partners, 201, {
      headers: owner.changes,
      json: { environment: 'test', name: 'Contract EMR', allowedOrigins: ['https://emr.contract.example'] },
    });
    const partnerPath = `${partners}/${partner.partner.id}`;
    await contract.call('GET', partners, 200, { headers: owner.headers });
    await contract.call('PATCH', partnerPath, 200, {
      headers: owner.changes,
      json: { allowedOrigins: ['https://emr.contract.example', 'https://emr2.contract.example'] },
    });
    await contract.call('POST', `${partnerPath}/rotate-secret`, 201, { headers: owner.changes });
    await contract.call('DELETE', partnerPath, 200, { headers: owner.changes });
    await contract.call('DELETE', `${partners}/ptn_missing`, 404, { headers: owner.changes });

    const invite = (email: string) =>
      contract.json<IssuedInvitation>('POST', '/api/v1/members/invitations', 201, {
        headers: owner.changes,
        json: { email, role: 'admin' },
      });
    const cancelled = await invite('gone@contract.example');
    await contract.call('DELETE', `/api/v1/members/invitations/${cancelled.invitation.id}`, 204, {
      headers: owner.changes,
    });
    const invited = await invite('admin@contract.example');
    await contract.call('POST', '/api/v1/members/invitations', 409, {
      headers: owner.changes,
      json: { email: OWNER.email, role: 'admin' },
    });
    const accepted = await contract.call('POST', '/api/v1/console/invitations/accept', 201, {
      json: { token: linkToken(invited.link), name: 'Ada Admin', password: 'a long enough password' },
    });
    const admin = JSON.parse(accepted.text) as ConsoleSession;
    await contract.call('GET', '/api/v1/members', 200, { headers: owner.headers });
    await contract.call('PATCH', `/api/v1/members/${admin.member.id}`, 200, {
      headers: owner.changes,
      json: { role: 'auditor' },
    });
    await contract.call('PATCH', `/api/v1/members/${owner.session.member.id}`, 409, {
      headers: owner.changes,
      json: { role: 'admin' },
    });
    await contract.call('DELETE', `/api/v1/members/${admin.member.id}`, 204, { headers: owner.changes });

    const adminToken = await contract.json<IssuedAdminToken>('POST', '/api/v1/admin-tokens', 201, {
      headers: owner.changes,
      json: { name: 'CI', role: 'developer' },
    });
    await contract.call('GET', '/api/v1/projects', 200, { headers: bearer(adminToken.secret) });
    await contract.call('GET', '/api/v1/admin-tokens', 200, { headers: owner.headers });
    await contract.call('DELETE', `/api/v1/admin-tokens/${adminToken.token.id}`, 200, { headers: owner.changes });
    await contract.call('GET', '/api/v1/projects', 401, { headers: bearer(adminToken.secret) });

    await singleSignOn(owner);
    await contract.call('GET', '/api/v1/usage', 200, { headers: owner.headers });
    await contract.call('GET', '/api/v1/usage?from=yesterday', 400, { headers: owner.headers, wrong: true });
    await contract.call('GET', '/api/v1/usage/export', 200, { headers: owner.headers });
    await contract.call('GET', '/api/v1/audit-events', 200, { headers: owner.headers });
    await contract.call('GET', '/api/v1/audit-events/export', 200, { headers: owner.headers });

    const password = { email: OWNER.email, password: OWNER.password };
    await contract.call('POST', '/api/v1/console/sessions', 401, { json: { ...password, password: 'wrong' } });
    const again = signedIn(await contract.call('POST', '/api/v1/console/sessions', 201, { json: password }));
    await contract.call('DELETE', '/api/v1/console/session', 204, { headers: owner.changes });
    await contract.call('DELETE', '/api/v1/console/sessions', 204, { headers: again.changes });
    await contract.call('GET', '/api/v1/console/session', 401, { headers: again.headers });
    expect(contract.problems).toEqual([]);
  });

  /** The provider a test starts, configured, used to sign in, then switched off. */
  async function singleSignOn(owner: SignedIn): Promise<void> {
    const callback = `${h.config.publicBaseUrl}/api/v1/console/sso/callback`;
    const provider = await startOpenIdProvider({
      redirectUri: callback,
      accounts: { owner: { email: OWNER.email, emailVerified: true } },
    });
    try {
      await contract.call('POST', '/api/v1/console/sso/start', 404, { json: { email: OWNER.email } });
      await contract.call('PUT', '/api/v1/organisation/sso', 200, {
        headers: owner.changes,
        json: {
          issuer: provider.issuer,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          passwordSignIn: true,
        },
      });
      const { authorizationUrl } = await contract.json<{ authorizationUrl: string }>(
        'POST',
        '/api/v1/console/sso/start',
        200,
        {
          json: { email: OWNER.email },
        },
      );
      // Prism's proxy follows redirects itself, so the callback's 303 is checked here, in process.
      const query = await followToRedirect(authorizationUrl, callback);
      for (const url of [`/api/v1/console/sso/callback?${query}`, '/api/v1/console/sso/callback?state=forged']) {
        const answer = await h.request({ method: 'GET', url });
        expect(answer.statusCode).toBe(303);
        expect(answer.headers.location).toMatch(/^\/console#\//);
        expect(documentedStatuses('get', '/api/v1/console/sso/callback')).toContain('303');
      }
      await contract.call('DELETE', '/api/v1/organisation/sso', 200, { headers: owner.changes });
    } finally {
      await provider.close();
    }
  }

  it('holds for the public routes', async () => {
    contract = new Contract(proxy);
    const partner = await h.createPartner();
    const { token } = await h.mintWidgetToken(partner.partnerKey, {
      userEmail: 'dr.rivera@clinic.example',
      emrUserId: 'emr-2',
    });
    await contract.call('GET', '/.well-known/jwks.json', 200);
    await contract.call('GET', `/widget?token=${token}`, 200);
    await contract.call('GET', '/widget', 401);
    await contract.call('GET', `/widget/assets/${BUILT_SCRIPT.file}`, 200);
    await contract.call('GET', `/widget/assets/${BUILT_STYLE.file}`, 200);
    await contract.call('GET', '/widget/assets/missing-0000.js', 404);
    // This service runs without the console's build.
    await contract.call('GET', '/console', 503);
    await contract.call('GET', '/console/assets/missing-0000.js', 404);
    await contract.call('GET', '/api/v1/openapi.json', 200);
    await contract.call('GET', '/healthz', 200);
    await contract.call('GET', '/readyz', 200);
    // This service runs without a recognizer: no new realtime session would be served.
    await contract.call('GET', '/readyz/realtime', 503);
    await contract.call('POST', '/api/v1/console/sso/start', 415, { raw: ['text/plain', 'x'], wrong: true });
    expect(contract.problems).toEqual([]);
  });

  it('catches an answer that does not match the document', async () => {
    contract = new Contract(proxy);
    const key = { ...bearer(h.project.testKey) };
    const spoiled = async (path: string, how: string, headers: Record<string, string> = {}) =>
      (await proxy.fetch(path, { headers: { ...headers, [BREAK_HEADER]: how, 'accept-encoding': 'identity' } }))
        .responseViolations;

    const wrongType = await spoiled('/api/v1/templates', 'wrong-type', key);
    expect(wrongType).toEqual([
      expect.objectContaining({ location: ['response', 'body', '0', 'id'], severity: 'Error' }),
    ]);
    const missing = await spoiled('/healthz', 'missing-field');
    expect(missing).toEqual([
      expect.objectContaining({
        location: ['response', 'body'],
        message: expect.stringContaining('status') as unknown,
      }),
    ]);
    const undocumented = await spoiled('/healthz', 'undocumented-status');
    expect(undocumented).toEqual([
      expect.objectContaining({ message: expect.stringContaining('status code') as unknown, severity: 'Error' }),
    ]);
    // Unspoiled, the same answers pass.
    expect((await proxy.fetch('/healthz')).responseViolations).toEqual([]);
  });

  it('holds for a readiness check that fails', async () => {
    contract = new Contract(proxy);
    await h.database.close();
    await contract.call('GET', '/readyz', 503);
    expect(contract.problems).toEqual([]);
  });

  function documentedStatuses(method: string, path: string): string[] {
    const paths = (JSON.parse(served) as { paths: Record<string, Record<string, { responses: object }>> }).paths;
    return Object.keys(paths[path]?.[method]?.responses ?? {});
  }

  interface SignedIn {
    session: ConsoleSession;
    /** For reads: the session cookie. */
    headers: Record<string, string>;
    /** For changes: the cookie and the CSRF token. */
    changes: Record<string, string>;
  }

  function signedIn(answer: CheckedAnswer): SignedIn {
    const session = JSON.parse(answer.text) as ConsoleSession;
    const cookie = (answer.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    return { session, headers: { cookie }, changes: { cookie, [CSRF_HEADER]: session.csrfToken } };
  }
});
