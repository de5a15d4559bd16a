import { goforwardPcm, missingSpeechTools } from '@chartwright/testing/speech.js';
import { describe, expect, it } from 'vitest';

import { processRssBytes } from '../../../tools/shared/process-cpu.js';
import { PocketSphinxRecognizer } from './engine.js';

function residentBytes(pid: number): number {
  const bytes = processRssBytes(pid);
  if (bytes === null) throw new Error(`cannot read the memory of process ${pid}`);
  return bytes;
}

/** Needs Debian's libpocketsphinx3, pocketsphinx-en-us and pocketsphinx-testdata (as pocketsphinx.int.test.ts). */
const missing = await missingSpeechTools();

const CHUNK = 1_600; // 100 ms
const STREAMS = 8;
const ROUNDS = 3;

describe.skipIf(missing.length > 0 || process.platform !== 'linux')("a recognizer worker's memory", () => {
  /**
   * Each round's decoders load while the spare loads beside them, and glibc used to put the next
   * round's large tables on the heap (its mmap threshold rises as mmapped blocks are freed), where
   * the spare's pages pinned them: without the fixed threshold (native.ts) this worker kept 1.3–1.4
   * times its idle memory after the rounds.
   */
  it(`returns to within 20% of idle after ${ROUNDS} rounds of ${STREAMS} streams`, async () => {
    const recognizer = new PocketSphinxRecognizer({ workers: 1 });
    try {
      await recognizer.warmUp();
      const [pid] = recognizer.workerPids();
      if (pid === undefined) throw new Error('no recognizer worker');
      const idle = residentBytes(pid);
      const audio = goforwardPcm();
      for (let round = 0; round < ROUNDS; round++) {
        const streams = await Promise.all(
          Array.from({ length: STREAMS }, () => recognizer.openStream({ sampleRate: 16000 })),
        );
        for (const stream of streams) {
          for (let offset = 0; offset < audio.length; offset += CHUNK)
            stream.write(audio.slice(offset, offset + CHUNK));
        }
        // The worker frees a stream's decoder, and trims the heap, before it says the stream ended.
        await Promise.all(streams.map((stream) => stream.end()));
      }
      const after = residentBytes(pid);
      process.stderr.write(`[asr] worker memory: idle ${idle >> 20} MB, after the rounds ${after >> 20} MB\n`);
      expect(after / idle).toBeLessThanOrEqual(1.2);
    } finally {
      await recognizer.close();
    }
  }, 120_000);
});

describe.skipIf(missing.length > 0)('a busy recognizer worker', () => {
  /**
   * A stream's decoder loads on another thread, but the load's end is handled on the worker's own
   * event loop. That loop used to decode every audio message the pipe held before it turned, so
   * under load a session waited for the whole backlog (22–40 s for the last of 16 sessions on two
   * cores, docs/performance.md).
   */
  it('opens new streams while earlier streams still have audio waiting to be decoded', async () => {
    const recognizer = new PocketSphinxRecognizer({ workers: 1, maxPendingMs: 120_000 });
    try {
      await recognizer.warmUp();
      const audio = goforwardPcm();
      const busy = await Promise.all([0, 1].map(() => recognizer.openStream({ sampleRate: 16000 })));
      // About 20 s of speech per stream, written at once: seconds of decoding queued.
      for (const stream of busy) {
        for (let turn = 0; turn < 7; turn++) {
          for (let offset = 0; offset < audio.length; offset += CHUNK)
            stream.write(audio.slice(offset, offset + CHUNK));
        }
      }
      // The first takes the loaded spare; the second waits for a load to end on the busy loop.
      await recognizer.openStream({ sampleRate: 16000 });
      const late = await recognizer.openStream({ sampleRate: 16000 });
      const waiting = busy.map((stream) => stream.pendingSamples);
      process.stderr.write(
        `[asr] audio still waiting when the second new stream opened: ${waiting.join(', ')} samples\n`,
      );
      expect(Math.min(...waiting)).toBeGreaterThan(0);
      await Promise.all([...busy, late].map((stream) => stream.end()));
    } finally {
      await recognizer.close();
    }
  }, 120_000);
});
