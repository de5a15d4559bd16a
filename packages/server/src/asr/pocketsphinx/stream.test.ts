import { describe, expect, it } from 'vitest';

import type { ToWorker } from './messages.js';
import { PocketSphinxStream } from './stream.js';

/** Samples of 16 kHz audio in `ms`. */
const samples = (ms: number) => ms * 16;

/** A stream as the pool makes it, with the worker's messages given by the test; its committed positions. */
function stream(): { stream: PocketSphinxStream; committed: number[]; sent: ToWorker[] } {
  const sent: ToWorker[] = [];
  const created = new PocketSphinxStream(
    1,
    0,
    (message) => sent.push(message),
    { maxPendingSamples: samples(10_000), maxUtteranceSamples: samples(18_000) },
    () => undefined,
  );
  const committed: number[] = [];
  created.on('committed', ({ ms }) => committed.push(ms));
  return { stream: created, committed, sent };
}

const decoded = (ms: number) => ({ type: 'decoded', id: 1, samples: samples(ms) }) as const;

describe('PocketSphinxStream', () => {
  it('commits audio well behind the decoder while no utterance shows, and holds at the last final while one does', () => {
    const { stream: s, committed } = stream();
    s.receive(decoded(4000));
    s.receive(decoded(7000));
    expect(committed).toEqual([2000]);
    s.receive({ type: 'partial', id: 1, text: 'go' });
    s.receive(decoded(9000));
    expect(committed).toEqual([2000]);
    s.receive({ type: 'final', id: 1, text: 'go forward', startMs: 7600, endMs: 9100 });
    s.receive(decoded(9500));
    expect(committed).toEqual([2000, 9100]);
    s.receive(decoded(15_000));
    expect(committed).toEqual([2000, 9100, 10_000]);
  });

  it('stops holding for an utterance that showed a partial and ended without words, once it is older than the longest utterance', () => {
    const { stream: s, committed } = stream();
    s.receive(decoded(1000));
    s.receive({ type: 'partial', id: 1, text: 'um' });
    s.receive(decoded(20_000));
    expect(committed).toEqual([]);
    s.receive(decoded(24_500));
    expect(committed).toEqual([19_500]);
  });
});
