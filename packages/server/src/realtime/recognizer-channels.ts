import { RECOGNIZER_SAMPLE_RATE, type AudioFormat, type StartMessage } from '@chartwright/protocol';

import {
  RecognizerError,
  type Recognizer,
  type RecognizerErrorCode,
  type RecognizerStream,
} from '../asr/recognizer.js';
import { decodeFrame } from './audio.js';
import type { SessionEvent } from './session-machine/index.js';

type Opened =
  { ok: true; streams: readonly RecognizerStream[] } | { ok: false; code: RecognizerErrorCode; message: string };

/** A session's recognizer streams, one per channel: audio goes in, their events come out as session events. */
export class RecognizerChannels {
  #streams: readonly RecognizerStream[] = [];

  constructor(
    private readonly recognizer: Recognizer,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  /** One stream per channel, all or none: when one fails, those that opened are ended first. */
  async open(start: StartMessage): Promise<Opened> {
    const options = {
      sampleRate: RECOGNIZER_SAMPLE_RATE,
      language: start.language,
      diarize: start.audio.channels === 1,
      ...(start.vocabulary === undefined ? {} : { vocabulary: start.vocabulary }),
    } as const;
    const opened = await Promise.allSettled(
      Array.from({ length: start.audio.channels }, () => this.recognizer.openStream(options)),
    );
    const streams = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failure = opened.find((result) => result.status === 'rejected');
    if (failure === undefined) return { ok: true, streams };
    await Promise.all(streams.map((stream) => stream.end()));
    const reason: unknown = failure.reason;
    return reason instanceof RecognizerError
      ? { ok: false, code: reason.code, message: reason.message }
      : { ok: false, code: 'recognizer_failed', message: 'The speech recognizer could not open a stream.' };
  }

  /** The session's streams from here on. */
  attach(streams: readonly RecognizerStream[]): void {
    this.#streams = streams;
    streams.forEach((stream, channel) => {
      stream.on('partial', ({ text }) => {
        this.emit({ type: 'recognizer_partial', channel, text });
      });
      stream.on('final', (final) => {
        this.emit({ type: 'recognizer_final', channel, final });
      });
      stream.on('error', ({ code, message }) => {
        this.emit({ type: 'recognizer_error', code, message });
      });
    });
  }

  /** Whole sample frames in `format`, each channel to its stream. */
  write(format: AudioFormat, data: Uint8Array): void {
    decodeFrame(format, data).forEach((pcm, channel) => this.#streams[channel]?.write(pcm));
  }

  finalize(): void {
    for (const stream of this.#streams) stream.finalize();
  }

  /** Resolves once every stream has emitted its last final. */
  async flush(): Promise<void> {
    await Promise.all(this.#streams.map((stream) => stream.end()));
  }
}
