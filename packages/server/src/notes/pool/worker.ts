/**
 * Note worker process (forked by note-pool.ts): parses conversations and runs the configured note
 * engine and the verifier, off the service's event loop, at a lower CPU priority than the service
 * and its recognizer workers. Several jobs may be in flight (an LLM engine's wait on its
 * provider); their CPU work takes turns on this one thread.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

import type { LogFn } from 'pino';

import { noteProducer } from '../engines/select.js';
import type { EngineLogger } from '../engines/openai/index.js';
import { writerOf } from '../note-service.js';
import { NOTE_WORKER_ENV, type FromNoteWorker, type NoteWorkerSettings, type ToNoteWorker } from './messages.js';

function send(message: FromNoteWorker): void {
  process.send?.(message);
}

/**
 * Lowers every thread of this process. On Linux a nice value belongs to a thread, and V8's helper
 * threads (garbage collection, compilation) exist before any code runs here, so each is reniced;
 * threads started later inherit the main thread's. Elsewhere the process id covers the process.
 */
function lowerPriority(niceness: number): void {
  const target = Math.min(19, getPriority() + niceness);
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const thread of threads) {
    try {
      setPriority(thread, target);
    } catch {
      // The thread ended between the listing and now.
    }
  }
}

const forward =
  (level: 'info' | 'warn'): LogFn =>
  (fields: unknown, message?: string) => {
    send({ type: 'log', level, fields: fields as Record<string, unknown>, message: message ?? '' });
  };

const settings = JSON.parse(process.env[NOTE_WORKER_ENV] ?? '') as NoteWorkerSettings;
lowerPriority(settings.niceness);
const logger: EngineLogger = { info: forward('info'), warn: forward('warn') };
const write = writerOf(noteProducer(settings, logger));
const running = new Map<number, AbortController>();

process.on('message', (message: ToNoteWorker) => {
  if (message.type === 'abort') {
    running.get(message.id)?.abort(new Error('the caller went away'));
    return;
  }
  const { id } = message;
  const controller = new AbortController();
  running.set(id, controller);
  write(message.input, { signal: controller.signal })
    .then(
      (outcome) => send({ type: 'written', id, outcome }),
      (error: unknown) => send({ type: 'failed', id, name: error instanceof Error ? error.name : typeof error }),
    )
    .finally(() => running.delete(id));
});
// The pool's channel closing means the service is gone: never outlive it.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
