import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { sampleValue } from '@chartwright/testing/metrics.js';
import { open, realtimeUrl } from '@chartwright/testing/realtime-client.js';
import { startServiceProcess, waitForReady } from '@chartwright/testing/service-process.js';
import { goforward, missingSpeechTools, PocketSphinxRecognizer, silence } from '@chartwright/testing/speech.js';
import { freePort } from '@chartwright/testing/widget-service.js';

import { buildMetricsApp } from './metrics-app.js';

const missing = await missingSpeechTools();

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
/** Stands for patient data sent in a path, a query and a body: it must never become a label. */
const MARKER = 'Quillon-Marbleworth-4417';

/**
 * The metrics after real traffic: REST calls answered 200, 404 and 429, a note written by the note
 * workers, a realtime session decoded by the real recognizer; each series with the labels and
 * values the traffic gave it, and nothing of what the requests carried.
 */
describe.skipIf(missing.length > 0)('metrics after real traffic', () => {
  let h: Harness;
  let recognizer: PocketSphinxRecognizer;
  let metrics: FastifyInstance;
  const scrape = async (): Promise<string> => {
    const response = await metrics.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return response.body;
  };
  const requests = (text: string, method: string, route: string, status: number) =>
    sampleValue(text, 'chartwright_http_request_duration_seconds_count', {
      method,
      route,
      status_code: String(status),
    });

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    h = await createHarness({ recognizer, config: { apiRateLimitPerMinute: 4 } });
    metrics = buildMetricsApp({ host: '127.0.0.1', port: 0, token: TOKEN }, h.app.metrics, h.app.log);
  });
  afterAll(async () => {
    await metrics.close();
    await h.close();
    await recognizer.close();
  });

  it('counts requests by route pattern and status, notes, 429s by limit, and the process', async () => {
    const key = h.project.testKey;
    const note = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key,
      payload: {
        template_id: 'soap',
        conversation_text: `[doctor] How are you, ${MARKER}?\n[patient] A cough for a week.`,
        patient: { name: MARKER },
      },
    });
    expect(note.statusCode).toBe(201);
    expect((await h.request({ method: 'GET', url: `/api/v1/notes/${MARKER}`, key })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: `/${MARKER}?patient=${MARKER}` })).statusCode).toBe(404);
    for (const expected of [200, 200, 429]) {
      expect((await h.request({ method: 'GET', url: '/api/v1/templates', key })).statusCode).toBe(expected);
    }

    const text = await scrape();
    expect(requests(text, 'POST', '/api/v1/notes', 201)).toBe(1);
    expect(requests(text, 'GET', '/api/v1/notes/:id', 404)).toBe(1);
    expect(requests(text, 'GET', 'unmatched', 404)).toBe(1);
    expect(requests(text, 'GET', '/api/v1/templates', 200)).toBe(2);
    expect(requests(text, 'GET', '/api/v1/templates', 429)).toBe(1);
    const buckets = { method: 'GET', route: '/api/v1/templates', status_code: '200', le: '+Inf' };
    expect(sampleValue(text, 'chartwright_http_request_duration_seconds_bucket', buckets)).toBe(2);
    expect(sampleValue(text, 'chartwright_rate_limit_refusals_total', { limiter: 'rest_api_project' })).toBe(1);
    expect(sampleValue(text, 'chartwright_rate_limit_refusals_total', { limiter: 'widget_api_clinician' })).toBe(0);

    expect(sampleValue(text, 'chartwright_note_jobs_started_total')).toBe(1);
    expect(sampleValue(text, 'chartwright_note_jobs_finished_total', { outcome: 'completed' })).toBe(1);
    expect(sampleValue(text, 'chartwright_note_jobs_finished_total', { outcome: 'refused' })).toBe(0);
    expect(sampleValue(text, 'chartwright_note_job_duration_seconds_count')).toBe(1);
    expect(sampleValue(text, 'chartwright_note_pool_jobs', { state: 'queued' })).toBe(0);
    expect(sampleValue(text, 'chartwright_note_pool_jobs', { state: 'writing' })).toBe(0);
    expect(sampleValue(text, 'chartwright_note_pool_workers', { state: 'busy' })).toBe(0);
    expect(sampleValue(text, 'chartwright_note_pool_workers', { state: 'idle' })).toBe(h.app.notePool.pids().length);

    expect(sampleValue(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sampleValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

    // Nothing the requests carried: no patient data, no key, no project, no token.
    for (const secret of [MARKER, h.project.testKey, h.project.liveKey, h.project.id, TOKEN]) {
      expect(text).not.toContain(secret);
    }
  }, 60_000);

  it('counts realtime sessions open and started, and the recognizer’s streams, backlog, audio and CPU', async () => {
    const audio = Buffer.concat([goforward(), silence(800)]);
    const client = await open(await realtimeUrl(h.app), { bearer: h.project.liveKey });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    const { sessionId } = await client.next('started');

    const streaming = await scrape();
    expect(sampleValue(streaming, 'chartwright_realtime_sessions_open')).toBe(1);
    expect(sampleValue(streaming, 'chartwright_realtime_sessions_started_total', { kind: 'new' })).toBe(1);
    expect(sampleValue(streaming, 'chartwright_realtime_sessions_started_total', { kind: 'resumed' })).toBe(0);
    expect(sampleValue(streaming, 'chartwright_recognizer_streams', { worker: '0' })).toBe(1);

    for (let offset = 0; offset < audio.length; offset += 3200)
      client.socket.send(audio.subarray(offset, offset + 3200));
    client.send({ type: 'stop' });
    await client.closed;
    await h.app.realtime.settled(sessionId);

    // 16-bit samples at 16 kHz, every one decoded; the worker reports its totals over IPC.
    await expect
      .poll(async () => sampleValue(await scrape(), 'chartwright_recognizer_audio_seconds_total', { worker: '0' }))
      .toBe(audio.length / 2 / 16_000);
    await expect.poll(async () => sampleValue(await scrape(), 'chartwright_realtime_sessions_open')).toBe(0);
    const ended = await scrape();
    expect(sampleValue(ended, 'chartwright_recognizer_backlog_seconds', { worker: '0' })).toBe(0);
    expect(sampleValue(ended, 'chartwright_recognizer_streams', { worker: '0' })).toBe(0);
    expect(sampleValue(ended, 'chartwright_recognizer_cpu_seconds_total', { worker: '0' })).toBeGreaterThan(0);
    for (const cap of ['instance', 'recognizer']) {
      expect(sampleValue(ended, 'chartwright_realtime_sessions_refused_total', { reason: 'at_capacity', cap })).toBe(0);
    }
  }, 60_000);
});

describe('the service started with METRICS_PORT', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chartwright-metrics-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /metrics on its own listener, with the token, and never on the public port', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const baseUrl = `http://127.0.0.1:${port}`;
    const service = startServiceProcess(dir, {
      PORT: String(port),
      SEED_DEMO: 'false',
      SHUTDOWN_DRAIN_MS: '0',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
    });
    try {
      await waitForReady(baseUrl, service);
      expect((await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      expect((await fetch(metricsUrl)).status).toBe(401);
      const scraped = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      const labels = { method: 'GET', route: '/readyz', status_code: '200' };
      expect(sampleValue(text, 'chartwright_http_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(1);
      expect(sampleValue(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
  }, 60_000);
});
