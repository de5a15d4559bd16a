import { describe, expect, it } from 'vitest';

import { loopFrames, startFrame } from './realtime-scenario.js';

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
