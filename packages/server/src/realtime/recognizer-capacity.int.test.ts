import { setTimeout as sleep } from 'node:timers/promises';

import { REALTIME_CLOSE_CODES } from '@chartwright/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { testConfig } from '../config/config.js';
import { UNMEASURED_REAL_TIME_FACTOR } from './recognizer-headroom.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { sampleValue } from '@chartwright/testing/metrics.js';
import { open, realtimeUrl, type RealtimeClient } from '@chartwright/testing/realtime-client.js';
import { goforward, missingSpeechTools, PocketSphinxRecognizer, silence } from '@chartwright/testing/speech.js';

const missing = await missingSpeechTools();

/**
 * A minute of speech and pauses: at up to four times real time, the service samples the worker's
 * totals (every 5 s) over more than the 30 s of audio the factor is first read over.
 */
const AUDIO = Buffer.concat(Array.from({ length: 15 }, () => Buffer.concat([goforward(), silence(1_200)])));
const FRAME = 3_200;

/**
 * The instance admits as many live streams as its recognizer decodes in real time, by the factor
 * its worker measured on real decoding: one worker, allowed half its core
 * (REALTIME_RECOGNIZER_MAX_LOAD_PERCENT=50), carries 0.5 / factor streams.
 */
describe.skipIf(missing.length > 0)('realtime admission by the recognizer’s capacity', () => {
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  let url: string;
  const clients: RealtimeClient[] = [];

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    h = await createHarness({
      recognizer,
      config: {
        realtime: {
          ...testConfig().realtime,
          recognizerMaxLoadPercent: 50,
          maxSessionsPerKey: 100,
          maxSessionsPerProject: 100,
          idleTimeoutSeconds: 600,
        },
      },
    });
    url = await realtimeUrl(h.app);
  });
  afterAll(async () => {
    for (const client of clients) client.socket.terminate();
    await h.close();
    await recognizer.close();
  });

  const connect = async (): Promise<RealtimeClient> => {
    const client = await open(url, { bearer: h.project.testKey });
    clients.push(client);
    return client;
  };

  it('admits on a cold instance what the assumed factor allows, before its worker has measured its own', async () => {
    await recognizer.warmUp();
    // One worker at half its core, at the assumed 0.4: one stream.
    const admitted: RealtimeClient[] = [];
    let refused: RealtimeClient | undefined;
    while (refused === undefined && admitted.length < 10) {
      const client = await connect();
      const answer = await client.next('error', 300).catch(() => null);
      if (answer === null) admitted.push(client);
      else refused = client;
    }
    expect(admitted).toHaveLength(Math.floor(0.5 / UNMEASURED_REAL_TIME_FACTOR));
    expect(refused?.of('error')[0]?.message).toContain('transcribes 1 live stream at once');
    for (const client of admitted) client.socket.close();
    await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
  });

  it('refuses the socket past what the worker decodes in real time with at_capacity, and admits again once one ends', async () => {
    const first = await connect();
    first.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 }, interimResults: false });
    await first.next('started');
    // Up to four times real time, never more than 2 s ahead of the worker (a slower machine's worker
    // would fall 10 s behind and fail the stream).
    const backlog = (): number => recognizer.load().reduce((total, worker) => total + worker.backlogSeconds, 0);
    for (let offset = 0; offset < AUDIO.length; offset += FRAME) {
      while (backlog() > 2) await sleep(20);
      first.socket.send(AUDIO.subarray(offset, offset + FRAME));
      await sleep(25);
    }
    const decoded = (): number => recognizer.load().reduce((total, worker) => total + worker.decodedSeconds, 0);
    // The worker reports its totals once a second while it decodes: the last second may not be in.
    await expect.poll(decoded, { timeout: 30_000 }).toBeGreaterThanOrEqual(55);

    // Sockets that have not started count as streams about to open; open them until one is refused.
    let refused: RealtimeClient | undefined;
    const admitted = [first];
    while (refused === undefined && admitted.length < 60) {
      const client = await connect();
      const answer = await client.next('error', 300).catch(() => null);
      if (answer === null) admitted.push(client);
      else refused = client;
    }
    if (refused === undefined) throw new Error(`no socket refused after ${admitted.length}`);
    const [error] = refused.of('error');
    expect(error).toMatchObject({ code: 'at_capacity', fatal: true });
    expect(error?.message).toContain(`transcribes ${admitted.length} live streams at once`);
    expect((await refused.closed).code).toBe(REALTIME_CLOSE_CODES.tryAgainLater);

    // The factor over the whole run, model loading included, is higher than the one measured over
    // decoding alone, so the worker carries at least half its inverse; a worker decoding more than
    // twice as fast as real time, more than one stream.
    const [load] = recognizer.load();
    const wholeRunFactor = (load?.cpuSeconds ?? Infinity) / (load?.decodedSeconds ?? 0);
    expect(admitted.length).toBeGreaterThanOrEqual(Math.floor(0.5 / wholeRunFactor));
    expect(admitted.length).toBeGreaterThan(1);
    const metrics = await h.app.metrics.render();
    expect(
      sampleValue(metrics, 'chartwright_realtime_sessions_refused_total', { reason: 'at_capacity', cap: 'recognizer' }),
    ).toBe(2);
    expect(
      sampleValue(metrics, 'chartwright_realtime_sessions_refused_total', { reason: 'at_capacity', cap: 'instance' }),
    ).toBe(0);

    // A place freed is taken again.
    admitted.pop()?.socket.close();
    await expect.poll(() => h.app.realtime.sessions().length).toBe(admitted.length);
    const again = await connect();
    again.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    await again.next('started');
  }, 90_000);
});
