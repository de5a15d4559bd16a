import { describe, expect, it } from 'vitest';

import { transcriptSegmentSchema } from '../realtime/messages.js';
import { noteSegmentSchema } from './note-segments.js';

describe('note segments', () => {
  it('take a realtime final’s segment as it arrived, corrections and display text included', () => {
    const final = transcriptSegmentSchema.parse({
      id: 'seg_000002',
      text: 'i take losartan',
      display: 'I take losartan.',
      displayTokens: [{ text: 'I', wordStart: 0, wordEnd: 1 }],
      startMs: 0,
      endMs: 900,
      channel: 1,
      speaker: 'patient',
      speakerLabel: 'S2',
      revision: 1,
      original: { text: 'i take lisinopril', speaker: 'patient', words: [{ word: 'i', startMs: 0, endMs: 100 }] },
    });
    expect(noteSegmentSchema.safeParse(final).success).toBe(true);
  });
});
