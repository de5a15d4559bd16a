import type {
  ErrorBody,
  IssuedWebhookEndpoint,
  NoteProgress,
  WebhookDelivery,
  WebhookEndpoint,
} from '@chartwright/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testConfig, type Config } from '../config/config.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  selfSignedCertificate,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@chartwright/testing/webhook-receiver.js';

const VISIT = '[doctor] any cough ? [patient] yes , for a week . [doctor] it sounds like a cold .';

function webhooksConfig(webhooks: Partial<Config['jobs']['webhooks']>): Partial<Config> {
  const base = testConfig();
  return { jobs: { ...base.jobs, pollMs: 50, webhooks: { ...base.jobs.webhooks, timeoutMs: 5_000, ...webhooks } } };
}

let h: Harness | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
  h = receiver = undefined;
});

async function call(harness: Harness, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key?: string) {
  return harness.request({ method, url, key: key ?? harness.project.testKey, ...(payload && { payload }) });
}

/** An async note whose callback is `url`, and its one delivery once its attempts are spent. */
async function deliveredOnce(harness: Harness, url: string): Promise<WebhookDelivery> {
  await call(harness, 'POST', '/api/v1/webhooks/callback-secret');
  const created = await call(harness, 'POST', '/api/v1/notes', {
    template_id: 'soap',
    conversation_text: VISIT,
    async: true,
    callback_url: url,
  });
  expect(created.statusCode).toBe(202);
  const id = created.json<NoteProgress>().id;
  return vi.waitFor(
    async () => {
      const [delivery] = (await call(harness, 'GET', `/api/v1/webhooks/deliveries?note_id=${id}`)).json<
        WebhookDelivery[]
      >();
      if (delivery?.status !== 'failed') throw new Error(`delivery is ${delivery?.status}`);
      return delivery;
    },
    { timeout: 20_000, interval: 20 },
  );
}

describe('webhook endpoints', () => {
  it('are made with a secret shown once, listed with its hint, and deleted, per project environment', async () => {
    h = await createHarness();
    const created = await call(h, 'POST', '/api/v1/webhooks/endpoints', {
      url: 'https://hooks.example.com/chartwright',
      description: 'EMR inbox',
    });
    expect(created.statusCode).toBe(201);
    const issued = created.json<IssuedWebhookEndpoint>();
    expect(issued).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://hooks.example.com/chartwright',
      description: 'EMR inbox',
      events: ['note.ready', 'note.failed'],
    });
    expect(issued.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(issued.secret_hint).toBe(`whsec_…${issued.secret.slice(-4)}`);

    const listed = (await call(h, 'GET', '/api/v1/webhooks/endpoints')).json<WebhookEndpoint[]>();
    const { secret: _secret, ...shown } = issued;
    expect(listed).toEqual([shown]);
    expect(JSON.stringify(listed)).not.toContain(issued.secret);
    // The database keeps it sealed, never as it was shown.
    const stored = await h.repositories.webhookEndpoints.get(issued.id);
    expect(stored?.secret_sealed).not.toContain(issued.secret);
    // Another environment of the project neither sees nor deletes it.
    expect((await call(h, 'GET', '/api/v1/webhooks/endpoints', undefined, h.project.liveKey)).json()).toEqual([]);
    const foreign = await call(h, 'DELETE', `/api/v1/webhooks/endpoints/${issued.id}`, undefined, h.project.liveKey);
    expect(foreign.json<ErrorBody>().error.code).toBe('webhook_endpoint_not_found');

    expect((await call(h, 'DELETE', `/api/v1/webhooks/endpoints/${issued.id}`)).statusCode).toBe(204);
    const again = await call(h, 'DELETE', `/api/v1/webhooks/endpoints/${issued.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json<ErrorBody>().error.code).toBe('webhook_endpoint_not_found');
  });

  it.each([
    ['http://hooks.example.com/x', /must be https/],
    ['https://10.0.0.8/x', /private/],
    ['https://[::1]/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
  ])('refuses %s', async (url, problem) => {
    h ??= await createHarness();
    const refused = await call(h, 'POST', '/api/v1/webhooks/endpoints', { url });
    expect(refused.statusCode).toBe(400);
    const { error } = refused.json<ErrorBody>();
    expect(error.code).toBe('webhook_url_refused');
    expect(error.details?.[0]?.path).toBe('url');
    expect(error.details?.[0]?.message).toMatch(problem);
  });
});

describe('an asynchronous note’s callback_url', () => {
  it('needs async, an allowed URL, and a callback secret to sign with', async () => {
    const harness = (h = await createHarness());
    const post = (body: object) =>
      call(harness, 'POST', '/api/v1/notes', { template_id: 'soap', conversation_text: VISIT, ...body });

    const withoutAsync = await post({ callback_url: 'https://hooks.example.com/x' });
    expect(withoutAsync.json<ErrorBody>().error).toMatchObject({
      code: 'invalid_body',
      details: [{ path: 'callback_url' }],
    });
    const plainHttp = await post({ async: true, callback_url: 'http://hooks.example.com/x' });
    expect(plainHttp.json<ErrorBody>().error).toMatchObject({
      code: 'webhook_url_refused',
      details: [{ path: 'callback_url' }],
    });
    const privateAddress = await post({ async: true, callback_url: 'https://192.168.0.10/x' });
    expect(privateAddress.json<ErrorBody>().error.code).toBe('webhook_url_refused');
    const noSecret = await post({ async: true, callback_url: 'https://hooks.example.com/x' });
    expect(noSecret.statusCode).toBe(409);
    expect(noSecret.json<ErrorBody>().error.code).toBe('callback_secret_missing');
    // Nothing was queued by the refused requests.
    expect((await h.repositories.noteJobs.countByStatus()).queued).toBe(0);

    await call(h, 'POST', '/api/v1/webhooks/callback-secret');
    expect((await post({ async: true, callback_url: 'https://hooks.example.com/x' })).statusCode).toBe(202);
  });
});

describe('deliveries, judged where the connection is made', () => {
  it('refuses a name that resolves to a refused address, sending nothing', async () => {
    // http is allowed to the name, but not the loopback address it resolves to.
    h = await createHarness({ config: webhooksConfig({ allowedHttpHosts: ['localhost'], maxAttempts: 1 }) });
    receiver = await startWebhookReceiver();
    const port = new URL(receiver.url).port;
    const delivery = await deliveredOnce(h, `http://localhost:${port}/hook`);
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, status: null, error: 'address_refused' })]);
    expect(receiver.received).toHaveLength(0);
  });

  it('speaks https and checks the receiver’s certificate', async () => {
    const certificate = selfSignedCertificate();
    try {
      h = await createHarness({ config: webhooksConfig({ allowedAddresses: ['127.0.0.1/32'], maxAttempts: 1 }) });
      receiver = await startWebhookReceiver({ tls: certificate });
      // This process does not trust the self-signed certificate: the TLS handshake fails, nothing is sent.
      const delivery = await deliveredOnce(h, `${receiver.url}/hook`);
      expect(delivery.attempts).toEqual([expect.objectContaining({ status: null, error: 'tls_failed' })]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      certificate.dispose();
    }
  });

  it('follows no redirect: a 3xx is a failed attempt', async () => {
    h = await createHarness({
      config: webhooksConfig({ allowedHttpHosts: ['127.0.0.1'], allowedAddresses: ['127.0.0.1/32'], maxAttempts: 1 }),
    });
    receiver = await startWebhookReceiver({ status: () => 307 });
    const delivery = await deliveredOnce(h, `${receiver.url}/hook`);
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 307, error: null })]);
    expect(receiver.received).toHaveLength(1);
  });
});
