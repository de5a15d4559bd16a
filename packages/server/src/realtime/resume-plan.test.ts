import { describe, expect, it } from 'vitest';

import { planResume, type StoredSegment } from './resume-plan.js';

const segment = (seq: number, channel: number, startMs: number, endMs: number, provisional = false): StoredSegment => ({
  seq,
  channel,
  startMs,
  endMs,
  provisional,
});

describe('planResume', () => {
  const lost = {
    segments: [segment(1, 0, 400, 2300), segment(2, 0, 3100, 4200, true)],
    transcribedMs: 4500,
    committedMs: [2300],
  };

  it('replaces the cut utterance when the client resends from before it: the decode starts where it was committed', () => {
    expect(planResume(lost, { lastAckedAudioMs: 2300, afterSeq: 1 }, 1)).toEqual({
      decodeFromMs: [2300],
      provisional: 'replace',
      lastSeq: 1,
    });
    // Resent from further back: the audio up to the committed position is counted, not decoded.
    expect(planResume(lost, { lastAckedAudioMs: 1000, afterSeq: 0 }, 1).decodeFromMs).toEqual([2300]);
  });

  it('keeps the cut utterance when the client resends only from later, or was given it', () => {
    expect(planResume(lost, { lastAckedAudioMs: 3500, afterSeq: 1 }, 1)).toEqual({
      decodeFromMs: [4500],
      provisional: 'keep',
      lastSeq: 2,
    });
    expect(planResume(lost, { lastAckedAudioMs: 2300, afterSeq: 2 }, 1).provisional).toBe('keep');
  });

  it('keeps a provisional segment that begins before its channel was committed (the engine misjudged)', () => {
    const early = { ...lost, segments: [segment(1, 0, 400, 2300), segment(2, 0, 2000, 4200, true)] };
    expect(planResume(early, { lastAckedAudioMs: 2000, afterSeq: 1 }, 1).provisional).toBe('keep');
  });

  it('after a crash (nothing recorded), decodes from the end of the stored finals or the resent audio', () => {
    const crashed = { segments: [segment(1, 0, 400, 2300)], transcribedMs: 0, committedMs: undefined };
    expect(planResume(crashed, { lastAckedAudioMs: 1800, afterSeq: 1 }, 1).decodeFromMs).toEqual([2300]);
    // Acknowledged silence after the last final: the client resends from later, and that is where decoding starts.
    expect(planResume(crashed, { lastAckedAudioMs: 9000, afterSeq: 1 }, 1).decodeFromMs).toEqual([9000]);
  });

  it('plans each channel from its own committed position', () => {
    const stereo = {
      segments: [segment(1, 1, 200, 1500), segment(2, 0, 300, 2600), segment(3, 1, 2000, 3300, true)],
      transcribedMs: 3600,
      committedMs: [2600, 1500],
    };
    expect(planResume(stereo, { lastAckedAudioMs: 1500, afterSeq: 2 }, 2)).toEqual({
      decodeFromMs: [2600, 1500],
      provisional: 'replace',
      lastSeq: 2,
    });
  });
});
