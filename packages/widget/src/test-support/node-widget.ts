import { setTimeout as sleep } from 'node:timers/promises';

import type { WidgetToEmrMessage } from '@chartwright/protocol';

import type { Harness } from '@chartwright/testing/harness.js';

import type { AudioInput } from '../controller/recording.js';
import { WidgetController } from '../controller/widget-controller.js';

/** The widget's controller run in Node against a listening service, with what it posts to its host kept. */
export interface NodeWidget {
  controller: WidgetController;
  /** Every message posted to the host, in order. */
  posted: WidgetToEmrMessage[];
  /** The allowed origins the controller opened its host link with, each time. */
  hostLinks: (readonly string[])[];
  /** The messages of one type posted so far. */
  postedOf<T extends WidgetToEmrMessage['type']>(type: T): Extract<WidgetToEmrMessage, { type: T }>[];
}

export interface NodeWidgetOptions {
  baseUrl: string;
  /** Added to the service's clock when the page is "served": a widget that thinks it is later than it is. */
  clockSkewMs?: number;
  frameOrigins?: string[];
  audio?: AudioInput;
  microphone?: 'allowed' | 'blocked' | 'unknown';
}

/** No microphone in Node: a widget that never records. */
const NO_AUDIO: AudioInput = {
  start: () => Promise.reject(new Error('no audio input in this test')),
};

/** A widget opened with `token`, as the page would boot it (the service's clock from the harness). */
export function nodeWidget(h: Harness, token: string | null, options: NodeWidgetOptions): NodeWidget {
  const posted: WidgetToEmrMessage[] = [];
  const hostLinks: (readonly string[])[] = [];
  const controller = new WidgetController({
    baseUrl: options.baseUrl,
    boot: {
      token,
      clockOffsetMs: h.clock.now() + (options.clockSkewMs ?? 0) - Date.now(),
      frameOrigins: options.frameOrigins ?? [],
    },
    host: (allowedOrigins) => {
      hostLinks.push(allowedOrigins);
      return { post: (message) => posted.push(message), listen: () => () => undefined };
    },
    audio: options.audio ?? NO_AUDIO,
    microphonePolicy: () => options.microphone ?? 'allowed',
    now: () => Date.now(),
    monotonicNow: () => performance.now(),
  });
  return {
    controller,
    posted,
    hostLinks,
    postedOf: (type) => posted.filter((message) => message.type === type) as never,
  };
}

/**
 * Audio from a recording, as a microphone would deliver it (16 kHz 16-bit mono, 100 ms chunks) but
 * four times faster, then quiet noise until stopped.
 */
export function recordedAudio(pcm: Uint8Array, silence: Uint8Array): AudioInput {
  return {
    start: (realtimeSession) => {
      const running = { stopped: false };
      const frame = 3200;
      const sending = (async () => {
        for (let offset = 0; !running.stopped; offset += frame) {
          const chunk = offset < pcm.length ? pcm.subarray(offset, offset + frame) : silence.subarray(0, frame);
          if (realtimeSession.closed) return;
          realtimeSession.send(chunk);
          await sleep(25);
        }
      })();
      return Promise.resolve({
        stop: async () => {
          running.stopped = true;
          await sending;
        },
      });
    },
  };
}
