import { templateListSchema } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe('GET /api/v1/templates', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('returns a JSON array of templates with ordered sections', async () => {
    const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body: unknown = response.json();
    expect(Array.isArray(body)).toBe(true);
    const templates = templateListSchema.parse(body);
    for (const template of templates) {
      expect(template.id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(template.name.length).toBeGreaterThan(0);
      expect(template.description.length).toBeGreaterThan(0);
      expect(template.sections.length).toBeGreaterThan(0);
      const keys = template.sections.map((section) => section.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('includes the curated SOAP template with its four sections in order', async () => {
    const templates = templateListSchema.parse(
      (await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.liveKey })).json(),
    );
    const soap = templates.find((template) => template.id === 'soap');
    expect(soap?.sections.map((section) => [section.key, section.label])).toEqual([
      ['subjective', 'Subjective'],
      ['objective', 'Objective'],
      ['assessment', 'Assessment'],
      ['plan', 'Plan'],
    ]);
  });

  it('includes History & Physical, Progress note, Discharge summary and Referral letter', async () => {
    const templates = templateListSchema.parse(
      (await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey })).json(),
    );
    expect(templates.map((template) => [template.id, template.name])).toEqual(
      expect.arrayContaining([
        ['history_and_physical', 'History & Physical'],
        ['progress_note', 'Progress note'],
        ['discharge_summary', 'Discharge summary'],
        ['referral_letter', 'Referral letter'],
      ]),
    );
  });

  it('lets a client revalidate its copy with If-None-Match', async () => {
    const first = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await h.request({
      method: 'GET',
      url: '/api/v1/templates',
      key: h.project.testKey,
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const unauthenticated = await h.request({
      method: 'GET',
      url: '/api/v1/templates',
      headers: { 'if-none-match': String(etag) },
    });
    expect(unauthenticated.statusCode).toBe(401);
  });
});
