/**
 * A visit's audio through the realtime WebSocket as the widget sends it: a temporary `svc_rt_`
 * token minted with the project key, the token as the auth subprotocol, `start` with the audio's
 * format, 100 ms binary frames, then `stop` and the `ended` event. Frames go `speed` times faster
 * than real time (the service decodes far faster than people speak; its queue refuses a client that
 * runs more than ~10 s ahead, so the speed must stay within what one recognizer worker sustains).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import {
  REALTIME_AUTH_SUBPROTOCOL_PREFIX,
  REALTIME_SUBPROTOCOL,
  REALTIME_WS_PATH,
  RECOGNIZER_SAMPLE_RATE,
  type RealtimeServerEvent,
  type RealtimeSessionResource,
  type RealtimeToken,
} from '@chartwright/protocol';
import WebSocket from 'ws';

const FRAME_MS = 100;

export interface StreamedVisit {
  sessionId: string;
  /** The session as `GET /api/v1/realtime/sessions/{id}` serves it once it ended. */
  stored: RealtimeSessionResource;
  /** `error` events the service sent (none in a clean run). */
  errors: string[];
}

async function api<T>(origin: string, apiKey: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export { api as serviceRequest };

/** `samples`: 16-bit PCM at the recognizer's rate, interleaved when `channels` is 2. */
export async function streamVisit(
  origin: string,
  apiKey: string,
  samples: Int16Array,
  channels: 1 | 2,
  speed: number,
): Promise<StreamedVisit> {
  const { token } = await api<RealtimeToken>(origin, apiKey, 'POST', '/api/v1/realtime/tokens', {});
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}${REALTIME_WS_PATH}`, [
    REALTIME_SUBPROTOCOL,
    `${REALTIME_AUTH_SUBPROTOCOL_PREFIX}${token}`,
  ]);
  const errors: string[] = [];
  const started = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`the realtime socket closed (${code}) before the session started`)));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const event = JSON.parse((data as Buffer).toString('utf8')) as RealtimeServerEvent;
      if (event.type === 'started') resolve(event.sessionId);
      else if (event.type === 'error') errors.push(event.code);
    });
  });
  const ended = new Promise<void>((resolve) => {
    socket.on('message', (data, isBinary) => {
      if (!isBinary && (JSON.parse((data as Buffer).toString('utf8')) as RealtimeServerEvent).type === 'ended')
        resolve();
    });
    socket.on('close', () => resolve());
  });
  socket.on('open', () => {
    socket.send(
      JSON.stringify({
        type: 'start',
        audio: { encoding: 'pcm_s16le', sampleRate: RECOGNIZER_SAMPLE_RATE, channels },
        interimResults: false,
      }),
    );
  });
  const sessionId = await started;
  const frameSamples = (RECOGNIZER_SAMPLE_RATE * FRAME_MS * channels) / 1000;
  const begun = performance.now();
  for (let offset = 0, frame = 0; offset < samples.length; offset += frameSamples, frame++) {
    const due = begun + (frame * FRAME_MS) / speed;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const chunk = samples.slice(offset, offset + frameSamples);
    socket.send(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  socket.send(JSON.stringify({ type: 'stop' }));
  await ended;
  socket.close();
  const stored = await api<RealtimeSessionResource>(origin, apiKey, 'GET', `/api/v1/realtime/sessions/${sessionId}`);
  return { sessionId, stored, errors };
}
