import { bytesPerFrame, RECOGNIZER_SAMPLE_RATE, type AudioFormat, type StartMessage } from '@chartwright/protocol';

import {
  RecognizerError,
  type CepstralMeans,
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
  async open(start: StartMessage, cepstralMeans: CepstralMeans): Promise<Opened> {
    const options = {
      sampleRate: RECOGNIZER_SAMPLE_RATE,
      language: start.language,
      diarize: start.audio.channels === 1,
      ...(start.vocabulary === undefined ? {} : { vocabulary: start.vocabulary }),
    } as const;
    const opened = await Promise.allSettled(
      Array.from({ length: start.audio.channels }, (_, channel) => {
        const cepstralMean = cepstralMeans[channel];
        return this.recognizer.openStream(
          cepstralMean === null || cepstralMean === undefined ? options : { ...options, cepstralMean },
        );
      }),
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
      stream.on('committed', ({ ms }) => {
        this.emit({ type: 'recognizer_committed', channel, ms });
      });
      stream.on('error', ({ code, message }) => {
        this.emit({ type: 'recognizer_error', code, message });
      });
    });
  }

  /**
   * Whole sample frames in `format`, each channel to its stream, less the first `skip[channel]`
   * frames of that channel (after a resume, audio its recognizer already transcribed).
   */
  write(format: AudioFormat, data: Uint8Array, skip: readonly number[]): void {
    const frameBytes = bytesPerFrame(format);
    const whole = skip.every((skipped) => skipped === 0) ? decodeFrame(format, data) : undefined;
    this.#streams.forEach((stream, channel) => {
      const skipped = skip[channel] ?? 0;
      const pcm = whole?.[channel] ?? decodeFrame(format, data.subarray(skipped * frameBytes))[channel];
      if (pcm !== undefined && pcm.length > 0) stream.write(pcm);
    });
  }

  finalize(): void {
    for (const stream of this.#streams) stream.finalize();
  }

  /** Resolves once every stream has emitted its last final. */
  async flush(): Promise<void> {
    await Promise.all(this.#streams.map((stream) => stream.end()));
  }
}
