import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fliteInstalled, synthesizeSpeech, TWO_VOICE_TURNS } from '@chartwright/testing/speech.js';
import { concatPcm, roomNoise } from '@chartwright/testing/synthetic-audio.js';
import { afterEach, describe, expect, it } from 'vitest';

import { DiarizationThread } from './diarization-thread-client.js';

const CI = process.env['CI'] !== undefined && process.env['CI'] !== '';
if (CI && !fliteInstalled()) throw new Error('flite is required in CI: apt-get install -y flite');

const ms = (samples: number): number => (samples * 1000) / 16_000;
const threads: DiarizationThread[] = [];

function thread(threadPath?: string): DiarizationThread {
  const started = new DiarizationThread(threadPath === undefined ? {} : { threadPath });
  threads.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(threads.splice(0).map((started) => started.close()));
});

describe.skipIf(!fliteInstalled())('DiarizationThread', () => {
  it("tells each stream's voices apart in a worker thread, each stream on its own", async () => {
    const diarization = thread();
    const first = diarization.open();
    const second = diarization.open();
    const attributions = [];
    let position = 0;
    for (const [voice, text] of TWO_VOICE_TURNS) {
      const speech = concatPcm([synthesizeSpeech(text, voice), roomNoise(500)]);
      for (let offset = 0; offset < speech.length; offset += 1_600)
        first.write(speech.subarray(offset, offset + 1_600));
      const startMs = ms(position);
      position += speech.length;
      attributions.push(first.attribute({ text, startMs, endMs: ms(position) - 500 }));
    }
    expect((await Promise.all(attributions)).map((a) => [a?.speakerLabel, a?.speaker])).toEqual([
      ['S1', 'clinician'],
      ['S2', 'patient'],
      ['S1', 'clinician'],
      ['S2', 'patient'],
    ]);
    // The other stream heard nothing: no voice for its span.
    expect(await second.attribute({ text: 'hello', startMs: 0, endMs: 1_000 })).toBeNull();
    first.close();
    second.close();
  });

  it('answers null for every stream, without waiting, while its thread keeps dying', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'diarization-thread-'));
    const dying = join(directory, 'dying.mjs');
    writeFileSync(dying, 'process.exit(3);\n');
    const diarization = thread(dying);
    const stream = diarization.open();
    stream.write(roomNoise(100));
    expect(await stream.attribute({ text: 'hello', startMs: 0, endMs: 100 })).toBeNull();
    expect(await diarization.open().attribute({ text: 'hello', startMs: 0, endMs: 100 })).toBeNull();
  });
});
