import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiKey, UsageDay } from '@chartwright/protocol';
import { setUpOwner, type ConsoleBrowser } from '@chartwright/testing/console.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { open, realtimeUrl } from '@chartwright/testing/realtime-client.js';
import { goforward, missingSpeechTools, msOf, PocketSphinxRecognizer, silence } from '@chartwright/testing/speech.js';

const missing = await missingSpeechTools();

/**
 * Usage as the console shows it: what a project environment did, counted in memory and stored once
 * a minute, per UTC day — REST requests, notes, realtime audio and widget tokens — and each key's
 * last use, to the hour.
 */
describe.skipIf(missing.length > 0)('usage counted per project environment and day', () => {
  let h: Harness;
  let owner: ConsoleBrowser;
  let recognizer: PocketSphinxRecognizer;
  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    h = await createHarness({ recognizer });
    owner = await setUpOwner(h);
  });
  afterAll(async () => {
    await h.close();
    await recognizer.close();
  });

  it('counts requests, notes, audio seconds and widget tokens, and when each key was last used', async () => {
    for (let request = 0; request < 3; request += 1) {
      expect((await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey })).statusCode).toBe(
        200,
      );
    }
    const note = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: {
        template_id: 'soap',
        conversation_text: '[doctor] What brings you in?\n[patient] A cough for a week.',
      },
    });
    expect(note.statusCode).toBe(201);
    const partner = await h.createPartner();
    await h.mintWidgetToken(partner.partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'u1' });

    const audio = Buffer.concat([goforward(), silence(800)]);
    const client = await open(await realtimeUrl(h.app), { bearer: h.project.liveKey });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    await client.next('started');
    for (let offset = 0; offset < audio.length; offset += 3200)
      client.socket.send(audio.subarray(offset, offset + 3200));
    client.send({ type: 'stop' });
    await client.closed;
    await h.app.realtime.settled(client.of('started')[0]?.sessionId ?? '');

    expect(await days()).toEqual([]);
    await h.app.usage.flush();
    const day = new Date(h.clock.now()).toISOString().slice(0, 10);
    expect(await days()).toEqual([
      {
        projectId: h.project.id,
        environment: 'live',
        day,
        restRequests: 0,
        notesGenerated: 0,
        realtimeAudioSeconds: Math.round(msOf(audio.length) / 1000),
        widgetTokens: 0,
      },
      {
        projectId: h.project.id,
        environment: 'test',
        day,
        restRequests: 4,
        notesGenerated: 1,
        realtimeAudioSeconds: 0,
        widgetTokens: 1,
      },
    ]);
    const keys = (await owner.request({ method: 'GET', url: `/api/v1/projects/${h.project.id}/keys` })).json<
      ApiKey[]
    >();
    const hour = new Date(h.clock.now() - (h.clock.now() % 3_600_000)).toISOString();
    expect(keys.find((key) => key.id === h.project.testKeyId)?.lastUsedAt).toBe(hour);

    const csv = (await owner.request({ method: 'GET', url: '/api/v1/usage/export' })).body.split('\r\n');
    expect(csv[0]).toBe(
      'day,project_id,environment,rest_requests,notes_generated,realtime_audio_seconds,widget_tokens',
    );
    expect(csv).toContain(`${day},${h.project.id},test,4,1,0,1`);
  }, 60_000);

  async function days(): Promise<UsageDay[]> {
    const response = await owner.request({ method: 'GET', url: `/api/v1/usage?projectId=${h.project.id}` });
    return response.json<UsageDay[]>().sort((a, b) => a.environment.localeCompare(b.environment));
  }
});
