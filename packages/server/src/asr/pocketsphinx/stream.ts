/**
 * The service-side half of a PocketSphinx stream: forwards audio to its worker and bounds what is
 * in flight. The worker acknowledges decoded samples; audio written but not yet decoded beyond
 * `maxPendingSamples` fails the stream as overloaded instead of queueing without limit.
 */
import { RecognizerEmitter } from '../emitter.js';
import type { RecognizerErrorCode, RecognizerStream } from '../recognizer.js';
import type { FromWorker, ToWorker } from './messages.js';

export class PocketSphinxStream extends RecognizerEmitter implements RecognizerStream {
  private written = 0;
  private decoded = 0;
  private state: 'open' | 'ending' | 'done' = 'open';
  private readonly settled: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly id: number,
    /** The worker process decoding this stream (tests kill it to check crash handling). */
    readonly workerPid: number,
    private readonly send: (message: ToWorker) => void,
    private readonly maxPendingSamples: number,
    private readonly onDone: (id: number) => void,
  ) {
    super();
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  write(pcm: Int16Array): void {
    if (this.state !== 'open' || pcm.length === 0) return;
    if (this.written + pcm.length - this.decoded > this.maxPendingSamples) {
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
        this.emit('partial', { text: message.text });
        return;
      case 'final': {
        const { type: _type, id: _id, ...final } = message;
        this.emit('final', final);
        return;
      }
      case 'decoded':
        this.decoded = message.samples;
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
        return;
    }
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
