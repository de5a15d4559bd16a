/**
 * Speakers for one microphone when the recognizer does not diarize in its own workers (the
 * OpenAI-compatible engine): each stream's audio goes to one worker thread (diarization-thread.ts),
 * which answers each final's voice. The thread starts with the first stream and is started again
 * for the next stream if it dies; the streams it carried then get no more voices (their finals keep
 * `speaker: "unknown"`), and none of them fails for it.
 */
import { Worker } from 'node:worker_threads';

import type { BaseLogger } from 'pino';

import { compiledModulePath } from '../../compiled-module.js';
import type { SpeakerAttribution } from './diarizer.js';
import type { AttributedFinal, FromDiarizationThread, ToDiarizationThread } from './thread-messages.js';

/** One stream's view of the thread. */
export interface StreamDiarizer {
  write(pcm: Int16Array): void;
  /** The final's voice and role; null when the thread heard no voice for it or is gone. */
  attribute(final: AttributedFinal): Promise<SpeakerAttribution | null>;
  close(): void;
}

interface Running {
  worker: Worker;
  pending: Map<number, (attribution: SpeakerAttribution | null) => void>;
  alive: boolean;
}

export class DiarizationThread {
  private running: Running | null = null;
  private nextStream = 1;
  private nextRequest = 1;

  constructor(private readonly options: { logger?: Pick<BaseLogger, 'warn'> | undefined; threadPath?: string } = {}) {}

  open(): StreamDiarizer {
    const running = this.start();
    const stream = this.nextStream++;
    const post = (message: ToDiarizationThread, transfer: ArrayBuffer[] = []): boolean => {
      if (!running.alive) return false;
      running.worker.postMessage(message, transfer);
      return true;
    };
    post({ type: 'open', stream });
    return {
      write: (pcm) => {
        // A copy of just this chunk: posting a view would copy the whole buffer behind it.
        const copy = pcm.slice();
        post({ type: 'audio', stream, pcm: copy }, [copy.buffer]);
      },
      attribute: (final) =>
        new Promise((resolve) => {
          const request = this.nextRequest++;
          running.pending.set(request, resolve);
          if (!post({ type: 'attribute', stream, request, final })) {
            running.pending.delete(request);
            resolve(null);
          }
        }),
      close: () => {
        post({ type: 'close', stream });
      },
    };
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (running === null) return;
    this.stopped(running);
    await running.worker.terminate();
  }

  private start(): Running {
    if (this.running?.alive === true) return this.running;
    const worker = new Worker(
      this.options.threadPath ?? compiledModulePath(import.meta.url, './diarization-thread.js'),
    );
    const running: Running = { worker, pending: new Map(), alive: true };
    worker.on('message', (message: FromDiarizationThread) => {
      const resolve = running.pending.get(message.request);
      running.pending.delete(message.request);
      resolve?.(message.attribution);
    });
    worker.on('error', (error) => {
      this.options.logger?.warn({ err: error }, 'the diarization thread failed; streams it carried lose their voices');
      this.stopped(running);
    });
    worker.on('exit', () => this.stopped(running));
    // Streams keep the thread busy, not alive: an engine never closed must not hold the process open.
    worker.unref();
    this.running = running;
    return running;
  }

  private stopped(running: Running): void {
    running.alive = false;
    for (const resolve of running.pending.values()) resolve(null);
    running.pending.clear();
    if (this.running === running) this.running = null;
  }
}
