import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DEMO_PARTNER_NAME, seedDemoPartner } from './demo.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

const ORIGIN = 'http://localhost:8081';

describe('seedDemoPartner', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const seed = (origin = ORIGIN) => seedDemoPartner(h.repositories, h.clock, h.config, origin);
  const tokenStatus = async (partnerKey: string) =>
    (
      await h.app.inject({
        method: 'POST',
        url: '/api/widget/token',
        headers: { 'x-partner-key': partnerKey },
        payload: { userEmail: 'dr.rivera@clinic.example', emrUserId: 'clin-1', emrSessionId: 'visit-1' },
      })
    ).statusCode;

  it('creates the demo EMR’s partner in the demo project’s sandbox, allowed to embed from its origin', async () => {
    // The harness's service already has a project, so it is created as on a fresh service's first start.
    const demoProject = await h.projects.create('Demo project');
    const issued = await seed(ORIGIN);
    expect(issued.partner).toMatchObject({
      name: DEMO_PARTNER_NAME,
      projectId: demoProject.id,
      environment: 'test',
      allowedOrigins: [ORIGIN],
      status: 'active',
    });
    expect(await tokenStatus(issued.partnerKey)).toBe(200);
  });

  it('creates the demo project when the service has other projects but not that one', async () => {
    const issued = await seed();
    const projects = await h.projects.list();
    expect(projects.map((project) => project.name).sort()).toEqual(['Demo project', 'Harness clinic']);
    expect(projects.find((project) => project.id === issued.partner.projectId)?.name).toBe('Demo project');
  });

  it('on a later start reuses the partner with a new key, and the old key stops at once', async () => {
    const first = await seed();
    const second = await seed();
    expect(second.partner.id).toBe(first.partner.id);
    expect(second.partnerKey).not.toBe(first.partnerKey);
    expect(await tokenStatus(second.partnerKey)).toBe(200);
    expect(await tokenStatus(first.partnerKey)).toBe(401);
    expect(await h.partners.list()).toHaveLength(1);
  });

  it('gives a demo EMR on another origin a partner of its own, and never revives a revoked one', async () => {
    const first = await seed();
    const moved = await seed('http://localhost:9091');
    expect(moved.partner.id).not.toBe(first.partner.id);

    await h.partners.revoke(first.partner.id);
    const again = await seed();
    expect(again.partner.id).not.toBe(first.partner.id);
    expect(again.partner.status).toBe('active');
  });

  it('refuses an origin a partner may not have', async () => {
    await expect(seed('ftp://localhost:8081')).rejects.toMatchObject({ code: 'invalid_body' });
  });
});
