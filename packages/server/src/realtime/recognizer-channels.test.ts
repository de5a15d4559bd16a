import { parseRealtimeClientMessage, type StartMessage } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { RecognizerEmitter } from '../asr/emitter.js';
import {
  RecognizerError,
  type Recognizer,
  type RecognizerEventName,
  type RecognizerEvents,
  type RecognizerStream,
  type RecognizerStreamOptions,
} from '../asr/recognizer.js';
import type { SessionEvent } from './session-machine/index.js';
import { RecognizerChannels } from './recognizer-channels.js';

function startOf(message: object): StartMessage {
  const parsed = parseRealtimeClientMessage(JSON.stringify({ type: 'start', ...message }));
  if (!parsed.ok || parsed.message.type !== 'start') throw new Error('not a start');
  return parsed.message;
}

class FakeStream extends RecognizerEmitter implements RecognizerStream {
  readonly written: Int16Array[] = [];
  ended = 0;
  finalized = 0;
  write(pcm: Int16Array): void {
    this.written.push(pcm);
  }
  finalize(): void {
    this.finalized++;
  }
  end(): Promise<void> {
    this.ended++;
    return Promise.resolve();
  }
  fire<E extends RecognizerEventName>(event: E, payload: RecognizerEvents[E]): void {
    this.emit(event, payload);
  }
}

function recognizer(opens: (() => Promise<RecognizerStream>)[], asked: RecognizerStreamOptions[] = []): Recognizer {
  return {
    name: 'fake',
    info: { kind: 'none', name: 'fake' },
    languages: 'any',
    status: () => Promise.resolve({ available: true }),
    openStream: (options) => {
      asked.push(options);
      return opens.shift()?.() ?? Promise.reject(new Error('no more streams'));
    },
    close: () => Promise.resolve(),
  };
}

describe('RecognizerChannels', () => {
  it("starts each channel's stream from the cepstral mean a resumed session stored for it, and a channel without one cold", async () => {
    const asked: RecognizerStreamOptions[] = [];
    const channels = new RecognizerChannels(
      recognizer([() => Promise.resolve(new FakeStream()), () => Promise.resolve(new FakeStream())], asked),
      () => undefined,
    );
    await channels.open(startOf({ audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 } }), [
      [50, 1, 2],
      null,
    ]);
    expect(asked.map((options) => options.cepstralMean)).toEqual([[50, 1, 2], undefined]);
  });

  it('opens one stream per channel, splits audio between them, and relays their events by channel', async () => {
    const [left, right] = [new FakeStream(), new FakeStream()];
    const events: SessionEvent[] = [];
    const channels = new RecognizerChannels(
      recognizer([() => Promise.resolve(left), () => Promise.resolve(right)]),
      (event) => events.push(event),
    );
    const opened = await channels.open(
      startOf({ audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 } }),
      [],
    );
    expect(opened).toEqual({ ok: true, streams: [left, right] });
    if (!opened.ok) return;
    channels.attach(opened.streams);
    const stereo = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 } as const;
    channels.write(stereo, new Uint8Array(new Int16Array([1, 2, 3, 4]).buffer), [0, 0]);
    expect([...(left.written[0] ?? [])]).toEqual([1, 3]);
    expect([...(right.written[0] ?? [])]).toEqual([2, 4]);
    // After a resume each channel skips the resent audio its recognizer already transcribed.
    channels.write(stereo, new Uint8Array(new Int16Array([5, 6, 7, 8, 9, 10]).buffer), [2, 1]);
    expect([...(left.written[1] ?? [])]).toEqual([9]);
    expect([...(right.written[1] ?? [])]).toEqual([8, 10]);
    right.fire('final', { text: 'it hurts', startMs: 0, endMs: 500 });
    right.fire('committed', { ms: 700 });
    left.fire('error', { code: 'recognizer_crashed', message: 'gone' });
    expect(events).toEqual([
      { type: 'recognizer_final', channel: 1, final: { text: 'it hurts', startMs: 0, endMs: 500 } },
      { type: 'recognizer_committed', channel: 1, ms: 700 },
      { type: 'recognizer_error', code: 'recognizer_crashed', message: 'gone' },
    ]);
    channels.finalize();
    await channels.flush();
    expect([left.finalized, left.ended, right.finalized, right.ended]).toEqual([1, 1, 1, 1]);
  });

  it.each([
    [
      new RecognizerError('recognizer_unavailable', 'no worker is running'),
      'recognizer_unavailable',
      'no worker is running',
    ],
    [new Error('surprise'), 'recognizer_failed', 'The speech recognizer could not open a stream.'],
  ])('opens all or none: a failure (%s) ends the streams that opened first', async (failure, code, message) => {
    const opened = new FakeStream();
    const channels = new RecognizerChannels(
      recognizer([() => Promise.resolve(opened), () => Promise.reject(failure)]),
      () => undefined,
    );
    const result = await channels.open(
      startOf({ audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 } }),
      [],
    );
    expect(result).toEqual({ ok: false, code, message });
    expect(opened.ended).toBe(1);
  });
});
