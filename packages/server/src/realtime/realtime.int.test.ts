import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer } from '../asr/index.js';
import { parseWav } from '../asr/wav.js';
import { wordErrorRate } from '../asr/wer.js';
import { createHarness, type Harness } from '../test-support/harness.js';
import { open, realtimeUrl, type RealtimeClient } from '../test-support/realtime-client.js';

/**
 * The realtime WebSocket end to end with the real PocketSphinx recognizer. Needs Debian's
 * libpocketsphinx3, pocketsphinx-en-us, pocketsphinx-testdata and flite: skipped locally when they
 * are missing, a failure in CI (the rule of asr/pocketsphinx/pocketsphinx.int.test.ts).
 */
const GOFORWARD = '/usr/share/pocketsphinx/test/data/goforward.raw';
const probe = new PocketSphinxRecognizer({ workers: 1 });
const engineStatus = await probe.status();
await probe.close();
const fliteInstalled = (() => {
  try {
    execFileSync('flite', ['-lv'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const missing = [
  ...(engineStatus.available ? [] : [engineStatus.reason]),
  ...(existsSync(GOFORWARD) ? [] : [`${GOFORWARD} (pocketsphinx-testdata)`]),
  ...(fliteInstalled ? [] : ['flite']),
];
if (missing.length > 0 && process.env['CI'] !== undefined && process.env['CI'] !== '') {
  throw new Error(
    `recognizer tests may not be skipped in CI; missing: ${missing.join('; ')}. ` +
      'Install: apt-get install -y libpocketsphinx3 pocketsphinx-en-us pocketsphinx-testdata flite',
  );
}

/** goforward.raw: 16 kHz 16-bit mono little-endian. */
const goforward = (): Buffer => readFileSync(GOFORWARD);

/** Quiet noise (not digital zeros) so the detector sees the end of speech, as bytes of s16le. */
function silence(ms: number, sampleRate = 16_000): Buffer {
  const samples = new Int16Array((ms * sampleRate) / 1000);
  let state = 7;
  for (let i = 0; i < samples.length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    samples[i] = Math.round((state / 2 ** 31 - 0.5) * 40);
  }
  return Buffer.from(samples.buffer);
}

/** Sends `audio` in 100 ms frames at `speed` × real time. */
async function stream(client: RealtimeClient, audio: Buffer, bytesPerSecond: number, speed: number): Promise<void> {
  const frame = Math.floor(bytesPerSecond / 10 / 2) * 2;
  for (let offset = 0; offset < audio.length; offset += frame) {
    client.socket.send(audio.subarray(offset, offset + frame));
    await sleep(100 / speed);
  }
}

const transcript = (client: RealtimeClient) =>
  client
    .of('final')
    .map((final) => final.segment.text)
    .join(' ');

describe.skipIf(missing.length > 0)('realtime WebSocket with PocketSphinx', () => {
  let h: Harness;
  let recognizer: PocketSphinxRecognizer;
  let url: string;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cw-rt-'));
    recognizer = new PocketSphinxRecognizer({ workers: 2 });
    await recognizer.warmUp();
    h = await createHarness({ recognizer });
    url = await realtimeUrl(h.app);
  });

  afterAll(async () => {
    await h.close();
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('streams goforward.raw into a final "go forward ten meters", partials first', async () => {
    const client = await open(url, { bearer: h.project.testKey });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    await client.next('started');
    await stream(client, Buffer.concat([goforward(), silence(1000)]), 32_000, 4);
    const final = await client.next('final');
    expect(final.segment).toMatchObject({ id: 'seg_000001', text: 'go forward ten meters', channel: 0 });
    expect(final.segment.words?.map((word) => word.word)).toEqual(['go', 'forward', 'ten', 'meters']);
    const types = client.events.map((event) => event.type);
    expect(types.indexOf('partial')).toBeLessThan(types.indexOf('final'));
    expect(client.of('ack').length).toBeGreaterThan(0);
    client.send({ type: 'stop' });
    expect((await client.closed).code).toBe(1000);
    expect(client.events.at(-1)).toMatchObject({ type: 'ended', reason: 'stopped', segments: 1 });
  }, 30_000);

  it('flushes the last utterance on stop', async () => {
    const client = await open(url, { bearer: h.project.testKey });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 }, interimResults: false });
    await client.next('started');
    const audio = goforward();
    // No trailing silence: only stop ends the utterance.
    await stream(client, audio.subarray(0, Math.floor((audio.length * 0.85) / 2) * 2), 32_000, 8);
    client.send({ type: 'stop' });
    await client.closed;
    expect(transcript(client)).toContain('go forward');
    const types = client.events.map((event) => event.type);
    expect(types.lastIndexOf('final')).toBeLessThan(types.indexOf('ended'));
    expect(client.of('partial')).toEqual([]);
  }, 30_000);

  it('transcribes flite speech sent at its own rate, resampled by the server', async () => {
    const file = join(scratch, 'speech.wav');
    const sentence = 'please call me back in the morning';
    execFileSync('flite', ['-voice', 'slt', '-t', sentence, '-o', file]);
    const wav = parseWav(readFileSync(file));
    const pcm = Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength);
    const client = await open(url, { bearer: h.project.testKey });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: wav.sampleRate } });
    await client.next('started');
    await stream(client, Buffer.concat([pcm, silence(800, wav.sampleRate)]), wav.sampleRate * 2, 4);
    client.send({ type: 'stop' });
    await client.closed;
    expect(wordErrorRate(sentence, transcript(client))).toBeLessThan(0.25);
  }, 30_000);

  it('keeps a second session decoding while the first gets bad input', async () => {
    const bad = await open(url, { bearer: h.project.testKey });
    const good = await open(url, { bearer: h.project.liveKey });
    good.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    bad.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    await good.next('started');
    await bad.next('started');
    const playing = stream(good, Buffer.concat([goforward(), silence(1000)]), 32_000, 4);
    bad.socket.send('not json');
    bad.socket.send(Buffer.alloc(33));
    bad.send({ type: 'shout' });
    await playing;
    good.send({ type: 'stop' });
    await good.closed;
    expect(transcript(good)).toBe('go forward ten meters');
    expect(bad.of('error').map((error) => error.code)).toEqual([
      'invalid_message',
      'misaligned_audio',
      'unknown_message_type',
    ]);
    bad.send({ type: 'stop' });
    expect((await bad.closed).code).toBe(1000);
  }, 30_000);
});
