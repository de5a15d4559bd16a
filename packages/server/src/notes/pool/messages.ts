/**
 * The IPC between the note worker pool (service process) and a note worker. Sent with the
 * `advanced` serialization (structured clone), so a note comes back exactly as the engine made it:
 * same keys in the same order, `undefined` fields kept.
 */
import type { NotesConfig } from '../../config/config.js';
import type { GenerationOutcome } from '../generator.js';
import type { NoteJob } from '../note-service.js';

export type ToNoteWorker =
  | { type: 'write'; id: number; input: NoteJob }
  /** The caller went away: abort the engine's work (an LLM request); the worker still answers. */
  | { type: 'abort'; id: number };

export type FromNoteWorker =
  | { type: 'ready' }
  | { type: 'written'; id: number; outcome: GenerationOutcome }
  /** The engine threw: only its name crosses, the message may quote the visit. */
  | { type: 'failed'; id: number; name: string }
  /** An engine's log line, written by the service's logger (the worker has none of its own). */
  | { type: 'log'; level: 'info' | 'warn'; fields: Record<string, unknown>; message: string };

export interface NoteWorkerSettings {
  notes: NotesConfig;
  /** How far below the service's own priority the worker runs (added to its nice value). */
  niceness: number;
}

/** Settings reach the worker in an environment variable, before any message can. */
export const NOTE_WORKER_ENV = 'CHARTWRIGHT_NOTE_WORKER';
