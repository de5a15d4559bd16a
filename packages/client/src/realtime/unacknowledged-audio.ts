import { bytesPerFrame, type AudioFormat } from '@chartwright/protocol';

import { RealtimeBufferOverflowError } from './errors.js';

interface Chunk {
  /** Position of the chunk's first byte in the session's audio, in bytes. */
  offset: number;
  bytes: Uint8Array;
}

/**
 * The session's audio that the service has not acknowledged yet, bounded: after a lost socket
 * everything here is sent again, continuing from the last `ack`. An `ack` never passes the start of
 * the utterance in progress, so that utterance is resent whole and decoded again in context.
 * Positions are bytes of the session's audio, counted the way the service counts its clock (whole
 * sample frames).
 */
export class UnacknowledgedAudio {
  private chunks: Chunk[] = [];
  private buffered = 0;
  /** Bytes accepted since the session started (the position after the last chunk). */
  private end = 0;
  private readonly frameBytes: number;
  private readonly maxBytes: number;

  constructor(
    private readonly format: AudioFormat,
    private readonly maxBufferedAudioMs: number,
  ) {
    this.frameBytes = bytesPerFrame(format);
    this.maxBytes = Math.ceil((maxBufferedAudioMs * format.sampleRate) / 1000) * this.frameBytes;
  }

  /** Bytes per sample frame: `send()` takes whole frames only. */
  get alignment(): number {
    return this.frameBytes;
  }

  /** Keeps a copy of `bytes` (the caller may reuse its buffer) and returns it. */
  append(bytes: Uint8Array): Uint8Array {
    if (this.buffered + bytes.byteLength > this.maxBytes)
      throw new RealtimeBufferOverflowError(this.maxBufferedAudioMs);
    const copy = bytes.slice();
    this.chunks.push({ offset: this.end, bytes: copy });
    this.end += copy.byteLength;
    this.buffered += copy.byteLength;
    return copy;
  }

  /** The service acknowledged the session's audio up to `audioMs`: what precedes it is dropped. */
  acknowledge(audioMs: number): void {
    const acked = this.byteOffsetOf(audioMs);
    while (this.chunks.length > 0) {
      const first = this.chunks[0];
      if (first === undefined) break;
      const chunkEnd = first.offset + first.bytes.byteLength;
      if (chunkEnd <= acked) {
        this.chunks.shift();
        this.buffered -= first.bytes.byteLength;
        continue;
      }
      if (first.offset < acked) {
        const drop = acked - first.offset;
        first.bytes = first.bytes.subarray(drop);
        first.offset = acked;
        this.buffered -= drop;
      }
      break;
    }
  }

  /** The chunks to send again after a resume, which continues the service's clock at `audioMs`. */
  after(audioMs: number): Uint8Array[] {
    const from = this.byteOffsetOf(audioMs);
    return this.chunks
      .filter((chunk) => chunk.offset + chunk.bytes.byteLength > from)
      .map((chunk) => (chunk.offset >= from ? chunk.bytes : chunk.bytes.subarray(from - chunk.offset)));
  }

  /** The service's own rounding: `audioMs` ↔ whole frames at the session's rate. */
  private byteOffsetOf(audioMs: number): number {
    return Math.round((audioMs * this.format.sampleRate) / 1000) * this.frameBytes;
  }
}
