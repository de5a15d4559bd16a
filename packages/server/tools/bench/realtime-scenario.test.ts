import { describe, expect, it } from 'vitest';

import { loopFrames, recognizerLoad, startFrame } from './realtime-scenario.js';

describe('the realtime bench loop', () => {
  it('cuts the recording into whole 100 ms frames, the last padded with silence, then a second of silence', () => {
    // 2.1 frames of "speech": 7,000 bytes of a recognisable byte pattern.
    const speech = Buffer.from(Array.from({ length: 7000 }, (_, index) => (index % 251) + 1));
    const frames = loopFrames(speech);

    expect(frames).toHaveLength(3 + 10);
    for (const frame of frames) expect(frame.length).toBe(3200);
    expect(Buffer.concat(frames.slice(0, 3)).subarray(0, 7000).equals(speech)).toBe(true);
    // A frame shorter than 100 ms would put every later frame's audio time off its index.
    expect(frames[2]?.subarray(7000 - 6400).every((byte) => byte === 0)).toBe(true);
    for (const frame of frames.slice(3)) expect(frame.every((byte) => byte === 0)).toBe(true);
  });

  it('spreads staggered streams evenly over the loop and starts lockstep streams together', () => {
    expect([0, 1, 2, 3].map((index) => startFrame('staggered', index, 4, 38))).toEqual([0, 9, 19, 28]);
    expect([0, 1, 2, 3].map((index) => startFrame('lockstep', index, 4, 38))).toEqual([0, 0, 0, 0]);
    expect(startFrame('staggered', 0, 1, 38)).toBe(0);
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
