// Streams a raw 16 kHz 16-bit mono speech file through the BUILT package's realtime client and
// prints what the application saw, as JSON. Run by node18.int.test.ts under Node 18, which has no
// global WebSocket: the client must load the `ws` package itself.
// Usage: node node18-realtime.mjs <esm|cjs> <baseUrl> <apiKey> <audio.raw>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';

const [format, baseUrl, apiKey, audioFile] = process.argv.slice(2);
const library =
  format === 'cjs' ? createRequire(import.meta.url)('@chartwright/client') : await import('@chartwright/client');

const client = new library.Chartwright({ apiKey, baseUrl });
const session = await client.realtime.connect({ encoding: 'pcm_s16le', sampleRate: 16000 });
const finals = [];
session.on('final', (event) => finals.push(event.segment.text));
const audio = readFileSync(audioFile);
const frame = 3200;
for (let offset = 0; offset < audio.length; offset += frame) {
  session.send(audio.subarray(offset, offset + frame));
  await sleep(25);
}
const ended = await session.stop();
process.stdout.write(
  JSON.stringify({
    node: process.version,
    globalWebSocket: typeof globalThis.WebSocket,
    isRealtimeSession: session instanceof library.RealtimeSession,
    finals,
    ended,
  }),
);
