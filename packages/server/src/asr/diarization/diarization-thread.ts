/**
 * A worker thread that tells voices apart for engines whose decoding happens elsewhere (the
 * OpenAI-compatible engine): one Diarizer per stream, fed the stream's audio as it arrives and asked
 * for each final's voice. Keeps the features' FFTs off the service's event loop.
 */
import { parentPort } from 'node:worker_threads';

import { Diarizer } from './diarizer.js';
import type { FromDiarizationThread, ToDiarizationThread } from './thread-messages.js';

const port = parentPort;
if (port === null) throw new Error('diarization-thread.js runs as a worker thread (diarization-pool.ts starts it)');

const diarizers = new Map<number, Diarizer>();

port.on('message', (message: ToDiarizationThread) => {
  switch (message.type) {
    case 'open':
      diarizers.set(message.stream, new Diarizer());
      break;
    case 'audio':
      diarizers.get(message.stream)?.write(message.pcm);
      break;
    case 'attribute': {
      const attribution = diarizers.get(message.stream)?.attribute(message.final) ?? null;
      const reply: FromDiarizationThread = { type: 'attribution', request: message.request, attribution };
      port.postMessage(reply);
      break;
    }
    case 'close':
      diarizers.delete(message.stream);
      break;
  }
});
