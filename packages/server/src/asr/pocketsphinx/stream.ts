/**
 * The service-side half of a PocketSphinx stream: forwards audio to its worker and bounds what is
 * in flight. The worker acknowledges decoded samples; audio written but not yet decoded beyond
 * `maxPendingSamples` fails the stream as overloaded instead of queueing without limit.
 *
 * It also says how far the audio is committed (`committed` events, see recognizer.ts). The worker
 * reports decoded samples, partials and finals, not when speech starts, so an utterance shows
 * itself only by its first partial: while none has been seen since the last final, audio more
 * than `COMMIT_LAG_MS` behind the decoder is committed. That lag covers how far an utterance's
 * words can precede its first partial: up to 4 s of audio decoded again after a long utterance's
 * cut (decoder-session.ts), then the partial interval. An utterance that showed a partial and then
 * ended without words (only a filled pause) emits no final; once it is older than the longest
 * utterance, it cannot still be open.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { RecognizerEmitter } from '../emitter.js';
import type { RecognizerErrorCode, RecognizerStream } from '../recognizer.js';
import type { FromWorker, ToWorker } from './messages.js';

/** See the module comment. */
const COMMIT_LAG_MS = 5_000;
const SAMPLES_PER_MS = RECOGNIZER_SAMPLE_RATE / 1000;

export interface PocketSphinxStreamLimits {
  maxPendingSamples: number;
  /** The decoder cuts speech this long (decoder-session.ts); no utterance stays open longer. */
  maxUtteranceSamples: number;
}

export class PocketSphinxStream extends RecognizerEmitter implements RecognizerStream {
  private written = 0;
  private decoded = 0;
  /** Where the last final's words ended (samples). */
  private lastFinalEnd = 0;
  /** Decoded samples when the first partial since the last final arrived: an utterance is open. */
  private openSince: number | undefined;
  private committed = 0;
  private state: 'open' | 'ending' | 'done' = 'open';
  private readonly settled: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly id: number,
    /** The worker process decoding this stream (tests kill it to check crash handling). */
    readonly workerPid: number,
    private readonly send: (message: ToWorker) => void,
    private readonly limits: PocketSphinxStreamLimits,
    private readonly onDone: (id: number) => void,
  ) {
    super();
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  write(pcm: Int16Array): void {
    if (this.state !== 'open' || pcm.length === 0) return;
    if (this.written + pcm.length - this.decoded > this.limits.maxPendingSamples) {
      this.send({ type: 'abort', id: this.id });
      this.fail('recognizer_overloaded', 'audio is arriving faster than the recognizer can decode it');
      return;
    }
    this.written += pcm.length;
    this.send({ type: 'audio', id: this.id, pcm });
  }

  finalize(): void {
    if (this.state === 'open') this.send({ type: 'finalize', id: this.id });
  }

  end(): Promise<void> {
    if (this.state === 'open') {
      this.state = 'ending';
      this.send({ type: 'end', id: this.id });
    }
    return this.settled;
  }

  /** Samples written but not yet decoded. */
  get pendingSamples(): number {
    return this.written - this.decoded;
  }

  /** A message from the worker about this stream. */
  receive(message: FromWorker): void {
    if (this.state === 'done') return;
    switch (message.type) {
      case 'partial':
        this.openSince ??= this.decoded;
        this.emit('partial', { text: message.text });
        return;
      case 'final': {
        const { type: _type, id: _id, ...final } = message;
        this.openSince = undefined;
        this.lastFinalEnd = Math.max(this.lastFinalEnd, final.endMs * SAMPLES_PER_MS);
        this.emit('final', final);
        return;
      }
      case 'decoded':
        this.decoded = message.samples;
        this.commit();
        return;
      case 'ended':
        this.done();
        return;
      case 'failed':
        this.fail(message.code, message.message);
        return;
      case 'ready':
      case 'unavailable':
      case 'opened':
      case 'usage':
        return;
    }
  }

  /** Emits how far the audio is committed, when that moved on (see the module comment). */
  private commit(): void {
    const lag = COMMIT_LAG_MS * SAMPLES_PER_MS;
    if (this.openSince !== undefined && this.decoded - this.openSince > this.limits.maxUtteranceSamples + lag) {
      this.openSince = undefined;
    }
    if (this.openSince !== undefined) return;
    const committed = Math.max(this.lastFinalEnd, this.decoded - lag);
    if (committed <= this.committed) return;
    this.committed = committed;
    this.emit('committed', { ms: committed / SAMPLES_PER_MS });
  }

  /** Ends the stream with a coded error event (worker crash, overload, engine closed). */
  fail(code: RecognizerErrorCode, message: string): void {
    if (this.state === 'done') return;
    this.done();
    this.emit('error', { code, message });
  }

  private done(): void {
    this.state = 'done';
    this.onDone(this.id);
    this.settle();
  }
}
