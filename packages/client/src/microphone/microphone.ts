import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import type { ChartwrightError } from '../errors.js';
import { RealtimeError } from '../realtime/errors.js';
import type { RealtimeSession } from '../realtime/session.js';
import { MicrophoneError, microphoneErrorOf } from './errors.js';
import {
  PCM_PROCESSOR_NAME,
  PCM_WORKLET_SOURCE,
  type PcmChunkMessage,
  type PcmProcessorOptions,
} from './pcm-worklet.js';

/**
 * What the helper streams, at the recognizer's own rate (nothing to resample on the service): the
 * session must be opened with this format.
 */
export const MICROPHONE_AUDIO_FORMAT = Object.freeze({
  encoding: 'pcm_s16le',
  sampleRate: RECOGNIZER_SAMPLE_RATE,
  channels: 1,
} as const);

export interface MicrophoneOptions {
  /** A specific input (`navigator.mediaDevices.enumerateDevices()`); default the system's. */
  deviceId?: string;
  /** Default true. */
  echoCancellation?: boolean;
  /** Default true. */
  noiseSuppression?: boolean;
  /** Default true. */
  autoGainControl?: boolean;
  /** Audio per `send()`, in ms. Default 100. */
  chunkMs?: number;
  /** The RMS level (0–1) of each chunk, for a meter. */
  onLevel?: (level: number) => void;
  /**
   * A problem while recording: the session refusing audio (e.g. `RealtimeBufferOverflowError`
   * during a long reconnect; that chunk is lost), or the device going away (`microphone_ended`,
   * after which the microphone has stopped).
   */
  onError?: (error: ChartwrightError) => void;
}

export interface Microphone {
  /** The captured stream (its one audio track is the device). */
  readonly stream: MediaStream;
  /** The rate the device delivers, before conversion to 16 kHz. */
  readonly deviceSampleRate: number;
  /** True once stopped. */
  readonly stopped: boolean;
  /**
   * Stops capturing and releases the device (its track ends, the browser's recording indicator
   * goes off). The session stays open: call `session.stop()` for its last `final`s (which also
   * stops the microphone, if it still runs).
   */
  stop(): Promise<void>;
}

const DEFAULT_CHUNK_MS = 100;

/**
 * Captures the microphone and streams it into `session` as 16 kHz 16-bit mono PCM: getUserMedia,
 * then an AudioWorklet (loaded from a Blob URL, so the library stays one file) that low-pass
 * filters and resamples the device's rate. Rejects with `MicrophonePermissionError` when access
 * is denied, `MicrophoneError` otherwise. Stops by itself when the session stops or closes.
 */
export async function startMicrophone(session: RealtimeSession, options: MicrophoneOptions = {}): Promise<Microphone> {
  const { encoding, sampleRate, channels } = session.format;
  if (
    encoding !== MICROPHONE_AUDIO_FORMAT.encoding ||
    sampleRate !== MICROPHONE_AUDIO_FORMAT.sampleRate ||
    channels !== MICROPHONE_AUDIO_FORMAT.channels
  ) {
    throw new MicrophoneError(
      `The microphone helper streams pcm_s16le at ${MICROPHONE_AUDIO_FORMAT.sampleRate} Hz, mono; this session ` +
        `takes ${encoding} at ${sampleRate} Hz, ${channels} channel(s). ` +
        `Connect with { encoding: 'pcm_s16le', sampleRate: ${MICROPHONE_AUDIO_FORMAT.sampleRate} }.`,
      'unsupported_session_format',
    );
  }
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (media === undefined || typeof AudioWorkletNode === 'undefined') {
    throw new MicrophoneError(
      'This page cannot capture audio: it needs a browser with getUserMedia and AudioWorklet, on https or localhost.',
      'microphone_unsupported',
    );
  }
  const stream = await media
    .getUserMedia({
      audio: {
        channelCount: 1,
        echoCancellation: options.echoCancellation ?? true,
        noiseSuppression: options.noiseSuppression ?? true,
        autoGainControl: options.autoGainControl ?? true,
        ...(options.deviceId === undefined ? {} : { deviceId: { exact: options.deviceId } }),
      },
    })
    .catch((error: unknown) => {
      throw microphoneErrorOf(error);
    });
  const context = new AudioContext();
  try {
    return await capture(session, stream, context, options);
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    await context.close().catch(() => undefined);
    throw error instanceof MicrophoneError
      ? error
      : new MicrophoneError('The audio pipeline could not be started.', 'microphone_unavailable', { cause: error });
  }
}

/** The PCM processor, loaded from a Blob URL so the library stays one file. */
async function loadProcessor(context: AudioContext): Promise<void> {
  const moduleUrl = URL.createObjectURL(new Blob([PCM_WORKLET_SOURCE], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(moduleUrl);
  } finally {
    URL.revokeObjectURL(moduleUrl);
  }
}

function processorNode(context: AudioContext, options: MicrophoneOptions): AudioWorkletNode {
  const processorOptions: PcmProcessorOptions = {
    targetRate: MICROPHONE_AUDIO_FORMAT.sampleRate,
    chunkSamples: Math.round(((options.chunkMs ?? DEFAULT_CHUNK_MS) * MICROPHONE_AUDIO_FORMAT.sampleRate) / 1000),
  };
  return new AudioWorkletNode(context, PCM_PROCESSOR_NAME, {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    channelCount: 1,
    channelCountMode: 'explicit',
    processorOptions,
  });
}

async function capture(
  session: RealtimeSession,
  stream: MediaStream,
  context: AudioContext,
  options: MicrophoneOptions,
): Promise<Microphone> {
  await loadProcessor(context);
  const source = context.createMediaStreamSource(stream);
  const node = processorNode(context, options);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    node.port.onmessage = null;
    removeCloseListener();
    source.disconnect();
    node.disconnect();
    for (const track of stream.getTracks()) track.stop();
    await context.close().catch(() => undefined);
  };
  node.port.onmessage = (event: MessageEvent<PcmChunkMessage>) => {
    options.onLevel?.(event.data.level);
    try {
      session.send(event.data.pcm);
    } catch (error) {
      // A session that takes no more audio (stopping or closed) ends the recording.
      if (error instanceof RealtimeError && error.code === 'session_closed') void stop();
      else options.onError?.(error as ChartwrightError);
    }
  };
  const removeCloseListener = session.on('close', () => void stop());
  for (const track of stream.getAudioTracks()) {
    track.addEventListener('ended', () => {
      if (stopped) return;
      void stop();
      options.onError?.(new MicrophoneError('The microphone stopped delivering audio.', 'microphone_ended'));
    });
  }
  source.connect(node);
  // The processor outputs silence; connecting it is what makes the graph pull its input.
  node.connect(context.destination);
  // Contexts created outside a user gesture start suspended.
  if (context.state === 'suspended') await context.resume();
  return {
    stream,
    deviceSampleRate: context.sampleRate,
    get stopped() {
      return stopped;
    },
    stop,
  };
}
