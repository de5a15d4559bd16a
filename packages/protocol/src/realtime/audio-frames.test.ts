import { describe, expect, it } from 'vitest';

import { bytesPerFrame, framesIn } from './audio-frames.js';

describe('audio frames', () => {
  it.each([
    ['pcm_s16le', 1, 2],
    ['pcm_s16le', 2, 4],
    ['pcm_f32le', 1, 4],
    ['pcm_f32le', 2, 8],
  ] as const)('a %s frame of %i channel(s) is %i bytes', (encoding, channels, bytes) => {
    expect(bytesPerFrame({ encoding, channels })).toBe(bytes);
  });

  it('counts whole frames only', () => {
    const stereoFloat = { encoding: 'pcm_f32le', channels: 2 } as const;
    expect(framesIn(stereoFloat, 0)).toBe(0);
    expect(framesIn(stereoFloat, 3200)).toBe(400);
    expect(framesIn(stereoFloat, 3204)).toBeUndefined();
  });
});
