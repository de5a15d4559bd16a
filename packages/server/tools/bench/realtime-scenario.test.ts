import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { encodeWav } from '@chartwright/server/internal/asr/wav.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RealSpeechError } from '../speech/real-speech.js';
import {
  firstFinalsApart,
  loopFrames,
  memoryDetail,
  recognizerLoad,
  sessionStarts,
  startFrame,
  streamedSpeech,
} from './realtime-scenario.js';
import { processRssBytes } from '../shared/process-cpu.js';

describe('the realtime bench loop', () => {
  it('cuts each recording into whole 100 ms frames, the last padded with silence, then a second of silence', () => {
    // 2.1 frames and 1 frame of "speech": recognisable byte patterns.
    const first = Buffer.from(Array.from({ length: 7000 }, (_, index) => (index % 251) + 1));
    const second = Buffer.alloc(3200, 7);
    const frames = loopFrames([first, second]);

    expect(frames).toHaveLength(3 + 10 + 1 + 10);
    for (const frame of frames) expect(frame.length).toBe(3200);
    expect(Buffer.concat(frames.slice(0, 3)).subarray(0, 7000).equals(first)).toBe(true);
    // A frame shorter than 100 ms would put every later frame's audio time off its index.
    expect(frames[2]?.subarray(7000 - 6400).every((byte) => byte === 0)).toBe(true);
    for (const frame of frames.slice(3, 13)) expect(frame.every((byte) => byte === 0)).toBe(true);
    expect(frames[13]?.equals(second)).toBe(true);
    for (const frame of frames.slice(14)) expect(frame.every((byte) => byte === 0)).toBe(true);
  });

  it('spreads staggered streams evenly over the loop and starts lockstep streams together', () => {
    expect([0, 1, 2, 3].map((index) => startFrame('staggered', index, 4, 38))).toEqual([0, 9, 19, 28]);
    expect([0, 1, 2, 3].map((index) => startFrame('lockstep', index, 4, 38))).toEqual([0, 0, 0, 0]);
    expect(startFrame('staggered', 0, 1, 38)).toBe(0);
  });
});

describe("the bench's latency report", () => {
  it("gives each stream's first final apart from the later ones, each with its p95 and count", () => {
    const later = Array.from({ length: 40 }, (_, index) => 300 + index);
    const detail = firstFinalsApart([
      { firstLatencyMs: 1_700, laterLatenciesMs: later.slice(0, 20) },
      { firstLatencyMs: 900, laterLatenciesMs: later.slice(20) },
      // A stream whose first final `stop` flushed: nothing to count for it.
      { firstLatencyMs: null, laterLatenciesMs: [] },
    ]);
    const [, first, firstCount, later95, laterCount] =
      /^each stream's first final p95 (\d+) ms of (\d+), the later finals p95 (\d+) ms of (\d+)$/.exec(detail) ?? [];
    // Percentiles come from the same histogram as the level's (three significant figures).
    expect(Number(first)).toBeCloseTo(1_700, -1);
    expect(firstCount).toBe('2');
    expect(Number(later95)).toBeGreaterThanOrEqual(337);
    expect(Number(later95)).toBeLessThanOrEqual(338);
    expect(laterCount).toBe('40');
  });

  it('says none where a level had no final of a kind', () => {
    expect(firstFinalsApart([{ firstLatencyMs: 650, laterLatenciesMs: [] }])).toBe(
      "each stream's first final p95 650 ms of 1, the later finals none",
    );
  });
});

describe('the speech the bench streams', () => {
  let root: string;
  const write = (file: string, samples: number[], rate = 16_000) =>
    writeFileSync(file, encodeWav(Int16Array.from(samples), rate));

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cw-bench-speech-'));
    const testdata = join(root, 'testdata');
    mkdirSync(join(testdata, 'librivox'), { recursive: true });
    mkdirSync(join(testdata, 'cards'), { recursive: true });
    writeFileSync(join(testdata, 'librivox', 'transcription'), '<s> an owl </s> (owl)\n');
    write(join(testdata, 'librivox', 'owl.wav'), [1, 2, 3, 4]);
    writeFileSync(join(testdata, 'cards', 'cards.transcription'), '<s> seven of hearts </s> (001)\n');
    mkdirSync(join(root, 'rs', 'wav'), { recursive: true });
    writeFileSync(join(root, 'rs', 'refs.tsv'), 'count\tdigits\tfour two\ntalk\tgeneral\tthe kettle sang\n');
    write(join(root, 'rs', 'wav', 'talk.wav'), [5, 5], 8_000);
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("is the read sentences: Debian's LibriVox and the set's general recordings at 16 kHz, never commands or digits", async () => {
    const speech = await streamedSpeech(join(root, 'rs'), join(root, 'testdata'));
    expect(
      speech.recordings.map((recording) =>
        Array.from(new Int16Array(recording.buffer, recording.byteOffset, recording.length / 2)),
      ),
    ).toEqual([
      [1, 2, 3, 4],
      [5, 5, 5, 5],
    ]);
    expect(speech.description).toBe(
      'streamed real read speech: librivox 1, real-speech 1 recordings, 0.0 s, each followed by 1 s of silence, looped',
    );
  });

  it("is LibriVox alone without the set, and says so; without Debian's recordings it is an error", async () => {
    const speech = await streamedSpeech(join(root, 'nowhere'), join(root, 'testdata'));
    expect(speech.recordings).toHaveLength(1);
    expect(speech.description).toContain(`librivox 1 recordings (no real-speech set at ${join(root, 'nowhere')})`);
    await expect(streamedSpeech(join(root, 'rs'), join(root, 'nowhere'))).rejects.toThrow(RealSpeechError);
  });
});

describe("a realtime level's decoding cost", () => {
  it('is CPU per second of audio, and the share of each worker core it kept busy', () => {
    // 16 streams for 30 s: 480 s of audio decoded with 36 CPU seconds by two workers.
    expect(recognizerLoad(36, 480, 30, 2)).toBe(
      'recognizer real-time factor 0.075 (36.0 CPU s for 480.0 s of audio), its 2 worker(s) 60% busy',
    );
  });
});

describe("a realtime level's session starts", () => {
  it('reports the median and slowest wait for started, the sessions refused for capacity, and those that never started', () => {
    const started = (startMs: number) => ({ startMs, refused: false });
    const unstarted = { startMs: null, refused: false };
    const refused = { startMs: null, refused: true };
    expect(sessionStarts([30.4, 2_900, 250, 14_180.6].map(started))).toBe(
      'session start → started: median 250 ms, slowest 14181 ms',
    );
    expect(sessionStarts([started(120), unstarted, started(80)])).toBe(
      'session start → started: median 80 ms, slowest 120 ms; 1 of 3 never started',
    );
    expect(sessionStarts([started(120), refused, refused, unstarted])).toBe(
      'session start → started: median 120 ms, slowest 120 ms; 2 of 4 refused at_capacity; 1 of 4 never started',
    );
    expect(sessionStarts([unstarted])).toBe('session start → started: none started; 1 of 1 never started');
  });
});

describe("a realtime level's memory", () => {
  it('is what each open stream adds to the workers, and how much of it they gave back once the streams ended', () => {
    const MB = 1024 * 1024;
    expect(memoryDetail(200 * MB, 536 * MB, 230 * MB, 8)).toBe(
      'recognizer memory: idle 200 MB, peak 536 MB (42 MB per stream), 230 MB after the streams ended (1.15× idle)',
    );
  });

  it('reads a live process’s resident memory, and none for a process that is gone', () => {
    expect(processRssBytes(process.pid)).toBeGreaterThan(10 * 1024 * 1024);
    expect(processRssBytes(2 ** 22 + 12_345)).toBeNull();
  });
});
